import AsymmetricKeys
import CryptoOpenSSL
import JOSE
import Testing

@Suite("JWE: nested JWTs (signed, then encrypted)")
struct NestedJWTTests {
    @Test("a JWT signed with ES256 and encrypted to an X25519 key verifies through JWEDecryptor")
    func signedThenEncrypted() throws {
        let signingKey = JOSEKey(try PrivateKey.generate(.ec, curve: .p256))
        let encryptionKey = JOSEKey(try PrivateKey.generate(.x25519))
        let now = NumericDate(secondsSince1970: 1_795_860_300)
        var claims = JWTClaims()
        claims.subject = "frodo"
        claims.expiration = now.adding(300)
        let inner = try JWT.sign(claims, with: signingKey, algorithm: .es256)
        var header = JOSEHeader()
        header.contentType = "JWT"
        let outer = try JWE.encrypt(Array(inner.utf8), to: JWERecipient(key: JOSEKey(try encryptionKey.publicKey()), algorithm: .ecdhESA256KW),
                                    encryption: .a256GCM, options: JWEEncryptionOptions(protectedHeader: header)).compactSerialization()
        let verifier = JOSEKeySet([JOSEKey(try signingKey.publicKey())])
        let jwt = try JWT(verifyingNested: outer, decryptor: JWEDecryptor(key: encryptionKey), with: verifier,
                          validator: JWTValidator(clock: { now }))
        #expect(jwt.claims.subject == "frodo")
        // Another key cannot open it.
        let stranger = JWEDecryptor(key: JOSEKey(try PrivateKey.generate(.x25519)))
        #expect(throws: JOSEError.self) {
            try JWT(verifyingNested: outer, decryptor: stranger, with: verifier, validator: JWTValidator(clock: { now }))
        }
    }
}
