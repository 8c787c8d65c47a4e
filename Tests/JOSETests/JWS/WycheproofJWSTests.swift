import AsymmetricKeys
import CofferJSON
import JOSE
import Testing

/// Wycheproof's `json_web_signature_test.json` (C2SP/wycheproof, testvectors_v1): all 401 tests.
/// Each test's compact JWS is verified with its group's key (the public one where there is one);
/// a `valid` test must verify, an `invalid` one must be refused.
///
/// Wycheproof checks the compact serialization only: its test 17, a valid JSON serialization, is
/// `invalid` for that reason, and is given to the compact reader.
@Suite("Wycheproof JSON Web Signature")
struct WycheproofJWSTests {
    struct Vector: CustomStringConvertible, Sendable {
        var id: Int
        var comment: String
        var jws: String
        var valid: Bool
        var key: JSONValue
        var description: String { "tcId \(id) \(comment)" }
    }

    /// Where Coffer deliberately disagrees with the file, and why. Each is still checked: Coffer's
    /// result must be the opposite of Wycheproof's.
    static let deviations: [Int: String] = [
        // The group's key says "alg": "ES521", which names no algorithm (RFC 7518 has ES512): a key
        // whose alg attribute names no algorithm allows none. Without the attribute it verifies
        // (checked in `es521KeyWithoutAttribute`).
        347: "key alg ES521 is not a JWS algorithm",
        351: "key alg ES521 is not a JWS algorithm",
        // RFC 7520 §4.2's PS384 token with a key whose "alg" attribute is PS256: the key allows
        // only its stated algorithm (issue 36: the allowed algorithm comes from the key).
        346: "key alg PS256, token PS384",
        350: "key alg PS256, token PS384",
        // The file's token is byte for byte tcId 357's (valid): the padding the comment describes
        // is not in it. Padding is refused (JWSRefusalTests.paddedBase64URL).
        367: "the token is identical to tcId 357",
        370: "the token is identical to tcId 357",
        // A '?' inserted into the header or payload segment, with the MAC of the text without it:
        // the signing input is the text as received (RFC 7515 §5.2), and '?' is not base64url.
        372: "'?' in the protected header segment is not base64url",
        373: "'?' in the payload segment is not base64url",
    ]

    static let vectors: [Vector] = JOSEFixtures.wycheproof("json_web_signature_test.json").compactMap { item in
        guard let key = item.group["public"] ?? item.group["private"], let jws = item.test["jws"]?.stringValue else { return nil }
        return Vector(id: item.id, comment: item.comment, jws: jws, valid: item.valid, key: key)
    }

    @Test("the file holds 401 tests")
    func count() {
        #expect(Self.vectors.count == 401)
    }

    @Test("each valid test verifies and each invalid one is refused", arguments: vectors)
    func vector(_ vector: Vector) throws {
        let key = try JOSEKey(jwk: vector.key, at: 0)
        let verified: Bool
        do {
            _ = try JWS(compact: vector.jws).verify(with: key)
            verified = true
        } catch {
            verified = false
        }
        let expected = Self.deviations[vector.id] == nil ? vector.valid : !vector.valid
        #expect(verified == expected, "\(vector)")
    }

    @Test("the ES521-labelled RFC 7520 key verifies its signature once the unknown alg attribute is gone")
    func es521KeyWithoutAttribute() throws {
        for id in [347, 351] {
            let vector = try require(Self.vectors.first { $0.id == id })
            var key = try JOSEKey(jwk: vector.key, at: 0)
            #expect(throws: JOSEError.self) { try JWS(compact: vector.jws).verify(with: key) }
            key.attributes.algorithm = nil
            #expect(try JWS(compact: vector.jws).verify(with: key).algorithm == .es512)
        }
    }
}
