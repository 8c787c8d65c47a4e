import AsymmetricKeys
import CryptoOpenSSL
import JOSE
import Testing

/// Every algorithm signs and verifies with a fresh key in every serialization; a changed byte is
/// refused; a key of the wrong curve or type is refused by name.
@Suite("JWS round trips")
struct JWSRoundTripTests {
    /// A fresh key for `algorithm`. RSA keys are generated once (slow) and shared.
    static let rsa = try? PrivateKey.generate(.rsa, bits: 2048)

    static func key(for algorithm: JWSAlgorithm) throws -> JOSEKey {
        switch algorithm.family {
        case .hmac: return JOSEKey(secret: try SecureBytes(randomCount: (algorithm.digest?.outputSize ?? 32)))
        case .rsaPKCS1, .rsaPSS: return JOSEKey(try require(rsa, "RSA key"))
        case .ecdsa(let curve): return JOSEKey(try PrivateKey.generate(.ec, curve: curve))
        case .eddsa: return JOSEKey(try PrivateKey.generate(.ed25519))
        }
    }

    @Test("sign and verify in compact, general and flattened JSON", arguments: JWSAlgorithm.allCases)
    func roundTrip(_ algorithm: JWSAlgorithm) throws {
        let key = try Self.key(for: algorithm)
        let verifier = key.secret != nil ? key : JOSEKey(try key.publicKey())
        let payload = Array(#"{"sub":"round trip"}"#.utf8)
        var header = JOSEHeader()
        header.keyID = "k"
        let jws = try JWS(signing: payload, key: key, algorithm: algorithm, protectedHeader: header)
        let texts = [try jws.compactSerialization(), try jws.jsonSerialization(), try jws.jsonSerialization(flattened: true)]
        for text in texts {
            let verified = try JWS(parsing: Array(text.utf8)).verify(with: verifier, allowedAlgorithms: [algorithm])
            #expect(verified.payload == payload)
            #expect(verified.algorithm == algorithm)
        }
        // One changed character of the signature segment is refused.
        var tampered = Array(texts[0].utf8)
        let last = tampered.count - 3
        tampered[last] = tampered[last] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let error = try #require(throws: JOSEError.self) { try JWS(compact: tampered).verify(with: verifier) }
        #expect(error.code == .invalidSignature || error.code == .malformed)
    }

    @Test("Ed448 signs as EdDSA")
    func ed448() throws {
        let key = JOSEKey(try PrivateKey.generate(.ed448))
        let token = try JWS(signing: Array("x".utf8), key: key).compactSerialization()
        #expect(try JWS(compact: token).verify(with: JOSEKey(try key.publicKey())).algorithm == .eddsa)
    }

    @Test("an ES256 token is refused with a P-384 key, and an RS256 token with an EC key")
    func wrongCurveOrType() throws {
        let p256 = try Self.key(for: .es256)
        let token = try JWS(signing: Array("x".utf8), key: p256, algorithm: .es256).compactSerialization()
        let p384 = JOSEKey(try PrivateKey.generate(.ec, curve: .p384))
        let error = try #require(throws: JOSEError.self) { try JWS(compact: token).verify(with: p384) }
        #expect(error.code == .algorithmNotAllowed)
        #expect(error.reason.contains("P-256"))
        let rsaToken = try JWS(signing: Array("x".utf8), key: try Self.key(for: .rs256), algorithm: .rs256).compactSerialization()
        #expect(throws: JOSEError(.algorithmNotAllowed, "")) { try JWS(compact: rsaToken).verify(with: p256) }
    }

    @Test("a public key cannot sign, and a key allowing several algorithms needs one named")
    func signerChoices() throws {
        let key = try Self.key(for: .rs256)
        #expect(throws: JOSEError(.invalidKey, "")) { try JWSSigner(key: JOSEKey(try key.publicKey()), algorithm: .rs256) }
        #expect(throws: JOSEError(.algorithmNotAllowed, "")) { try JWSSigner(key: key) }
        #expect(try JWSSigner(key: try Self.key(for: .es384)).algorithm == .es384)
    }
}
