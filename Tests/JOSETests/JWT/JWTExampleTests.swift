import CofferJSON
import JOSE
import Testing

/// RFC 7519's examples (`Fixtures/jose/rfc/rfc7519-examples.json`): §3.1 verifies and its claims
/// read as stated, with a clock before its `exp`; §6.1, the unsecured JWT, is refused.
@Suite("RFC 7519 examples")
struct JWTExampleTests {
    static func example(_ section: String) throws -> JSONValue {
        let file = try JOSEFixtures.json("rfc/rfc7519-examples.json")
        guard case .array(let list)? = file["examples"], let found = list.first(where: { $0["section"] == .string(section) }) else {
            throw TestFailure(what: "example \(section)")
        }
        return found
    }

    @Test("§3.1: the HS256 JWT verifies, and its claims are iss joe, exp 1300819380, is_root true")
    func example31() throws {
        let example = try Self.example("3.1")
        let token = try require(example["token"]?.stringValue)
        let key = try JOSEKey(jwk: try require(example["key"]), at: 0)
        // exp is 2011-03-22T18:43:00Z: validate one minute before it.
        let validator = JWTValidator(type: "JWT", clock: { NumericDate(secondsSince1970: 1_300_819_320) })
        let jwt = try JWT(verifying: token, with: key, allowedAlgorithms: [.hs256], validator: validator)
        #expect(jwt.claims.issuer == "joe")
        #expect(jwt.claims.expiration == NumericDate(secondsSince1970: 1_300_819_380))
        #expect(jwt.claims["http://example.com/is_root"] == .bool(true))
        #expect(jwt.header.type == "JWT")
        // With today's clock it has long expired, and says when.
        let error = try #require(throws: JOSEError.self) { try JWT(verifying: token, with: key, allowedAlgorithms: [.hs256]) }
        #expect(error.code == .expired)
        #expect(error.reason.contains("expired at 2011-03-22T18:43:00Z"))
    }

    @Test("§6.1: the unsecured JWT is refused, even decoded with a key that allows every HMAC")
    func example61() throws {
        let example = try Self.example("6.1")
        let token = try require(example["token"]?.stringValue)
        let key = try JOSEKey(jwk: try require(try Self.example("3.1")["key"]), at: 0)
        let validator = JWTValidator(clock: { NumericDate(secondsSince1970: 1_300_819_320) })
        #expect(throws: JOSEError.self) { try JWT(verifying: token, with: key, validator: validator) }
        let withSignature = try #require(throws: JOSEError.self) { try JWT(verifying: token + "AA", with: key, validator: validator) }
        #expect(withSignature.code == .algorithmNotAllowed)
    }
}
