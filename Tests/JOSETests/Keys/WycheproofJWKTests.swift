import CofferJSON
import JOSE
import Testing

/// Wycheproof's `json_web_key_test.json` (26 tests): each group's key set (the public one where
/// there is one) is read with ``JOSEKeySet``, and the test's JWS verified with it; a `valid` test
/// must verify, an `invalid` one be refused — by the set's reader (a key that is malformed, a set
/// that mixes secrets and public keys) or by verification (duplicate `kid`, `use`, `alg`, size,
/// exponent, ROCA).
@Suite("Wycheproof JSON Web Key")
struct WycheproofJWKTests {
    struct Vector: CustomStringConvertible, Sendable {
        var id: Int
        var comment: String
        var jws: String
        var valid: Bool
        var keys: JSONValue
        var description: String { "tcId \(id) \(comment)" }
    }

    static let vectors: [Vector] = JOSEFixtures.wycheproof("json_web_key_test.json").compactMap { item in
        guard let keys = item.group["public"] ?? item.group["private"], let jws = item.test["jws"]?.stringValue else { return nil }
        return Vector(id: item.id, comment: item.comment, jws: jws, valid: item.valid, keys: keys)
    }

    /// Where Coffer disagrees with the file, and why; still checked (the result must be the opposite).
    static let deviations: [Int: String] = [
        // "rejectsDuplicateKid": the set's second key with the same kid has a "k" whose last
        // character has non-zero unused bits, so strict base64url skips it (RFC 7517 §5) and the
        // set holds one key of that kid. Two readable keys with one kid are refused
        // (JOSEKeySetTests.duplicateKeyID).
        4: "the duplicate is unreadable (non-canonical base64url) and skipped",
    ]

    @Test("the file holds 26 tests")
    func count() {
        #expect(Self.vectors.count == 26)
    }

    @Test("each valid test verifies and each invalid one is refused", arguments: vectors)
    func vector(_ vector: Vector) {
        let verified: Bool
        do {
            let set = try JOSEKeySet(jwks: Array(vector.keys.serialized.utf8))
            _ = try JWS(compact: vector.jws).verify(with: set)
            verified = true
        } catch {
            verified = false
        }
        let expected = Self.deviations[vector.id] == nil ? vector.valid : !vector.valid
        #expect(verified == expected, "\(vector)")
    }

    @Test("the ROCA key, the exponent-1 key and the 1024-bit key are refused for what they are",
          arguments: [(7, "ROCA"), (9, "exponent"), (8, "2048")])
    func weakKeys(_ id: Int, _ named: String) throws {
        let vector = try require(Self.vectors.first { $0.id == id })
        let set = try JOSEKeySet(jwks: Array(vector.keys.serialized.utf8))
        let error = try #require(throws: JOSEError.self) { try JWS(compact: vector.jws).verify(with: set) }
        #expect(error.reason.contains(named), "\(error.reason)")
    }
}
