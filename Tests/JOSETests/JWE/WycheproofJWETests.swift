import AsymmetricKeys
import CofferJSON
import CofferTestSupport
import JOSE
import Testing

@Suite("JWE: Wycheproof json_web_encryption_test.json")
struct WycheproofJWETests {
    struct Vector: CustomStringConvertible, Sendable {
        var id: Int
        var comment: String
        var key: JSONValue
        var token: String
        var plaintext: [UInt8]
        var valid: Bool
        var description: String { "tcId \(id) \(comment)" }
    }

    static let vectors: [Vector] = JOSEFixtures.wycheproof("json_web_encryption_test.json").compactMap { item in
        guard let key = item.group["private"], let token = item.test["jwe"]?.stringValue else { return nil }
        return Vector(id: item.id, comment: item.comment, key: key, token: token,
                      plaintext: TestHex.bytes(item.test["pt"]?.stringValue ?? ""), valid: item.valid)
    }

    @Test("the file has its 139 tests")
    func count() {
        #expect(Self.vectors.count == 139)
    }

    /// Each test decrypts with its group's private key as a compact token; RSA1_5 is allowed for
    /// the keys whose `alg` is RSA1_5 (the reader opting in), so that their valid tests decrypt and
    /// their padding tests exercise the random-CEK path. Valid tests give the plaintext; invalid
    /// ones (modified tags, IVs, headers; a JSON serialization given as a compact token; an epk
    /// off the curve; a key used with another algorithm than its `alg`; bad PKCS#1 padding) are
    /// refused.
    @Test("valid tests decrypt to their plaintext, invalid ones are refused", arguments: vectors)
    func vector(_ vector: Vector) throws {
        let key = try JOSEKey(jwk: vector.key, at: 0)
        let options = JWEDecryptionOptions(allowRSA1_5: key.attributes.algorithm == "RSA1_5")
        let outcome = Result { () throws(JOSEError) -> DecryptedJWE in
            try JWEMessage(compact: vector.token).decrypt(with: key, options: options)
        }
        switch outcome {
        case .success(let result):
            #expect(vector.valid, "accepted an invalid JWE")
            #expect(result.plaintext == vector.plaintext)
        case .failure(let error):
            #expect(!vector.valid, "refused a valid JWE: \(error)")
        }
    }
}
