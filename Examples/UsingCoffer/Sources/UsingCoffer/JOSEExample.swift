import AsymmetricKeys
import CryptoOpenSSL
import Foundation
import JOSE

/// Signs a JWT with a key file of any container, verifies it with the issuer and audience checked,
/// then encrypts a message to the same key's public half and decrypts it.
func joseExample(keyFile: String) throws {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: keyFile)))
    let key = JOSEKey(try KeyDecoder.decode(bytes, source: keyFile, passphrase: nil))

    // Sign: the algorithm comes from the key (ES256 for a P-256 key).
    var claims = JWTClaims()
    claims.setClaim("iss", .string("https://issuer.example"))
    claims.setClaim("aud", .string("api"))
    claims.setClaim("sub", .string("alice"))
    claims.setClaim("exp", .number(String(Int(Date().timeIntervalSince1970) + 3600)))
    let token = try JWT.sign(claims, with: key)
    print("JWT:", token.prefix(40) + "…")

    // Verify with the public key only: signature, then exp/nbf/iat, issuer and audience.
    let verifier = JOSEKey(try key.publicKey())
    let jwt = try JWT(verifying: token, with: verifier,
                      validator: JWTValidator(issuer: "https://issuer.example", audiences: ["api"]))
    print("verified: sub", jwt.claims.subject ?? "?", "alg", jwt.header.algorithm ?? "?")

    // A token signed for another audience is refused with the reason.
    do throws(JOSEError) {
        _ = try JWT(verifying: token, with: verifier, validator: JWTValidator(audiences: ["billing"]))
    } catch {
        print("refused:", error.code, "-", error.reason)
    }

    // JWE: ECDH-ES+A256KW to the public key, A256GCM, compact; decrypted with the private key.
    let message = try JWE.encrypt(Array("meet at dawn".utf8), to: JWERecipient(key: verifier, algorithm: .ecdhESA256KW),
                                  encryption: .a256GCM).compactSerialization()
    let opened = try JWEMessage(compact: message).decrypt(with: key)
    print("JWE decrypted:", String(decoding: opened.plaintext, as: UTF8.self))
}
