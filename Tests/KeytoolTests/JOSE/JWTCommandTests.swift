import CofferTestSupport
import Foundation
import Testing

/// `keytool jwt sign|verify|decode` against PyJWT: tokens keytool signs, PyJWT accepts with its
/// claim checks; tokens PyJWT signs, keytool verifies; each claim refusal with its reason.
@Suite("keytool jwt: interop with PyJWT, claim checks, decode")
struct JWTCommandTests {
    /// The JWS algorithms PyJWT and keytool share.
    static let algorithms = ["HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512",
                             "ES256", "ES384", "ES512", "ES256K", "EdDSA", "EdDSA-Ed448"]

    @Test("keytool signs, PyJWT decodes with its issuer, audience and expiry checks", .needs(python: "jwt", "jwcrypto"), arguments: algorithms)
    func keytoolToPyJWT(_ alg: String) throws {
        let pair = try JOSEKeyFiles.get().pair(for: alg)
        let signed = try CLIRunner.run(["jwt", "sign", "--alg", JWSCommandTests.jose(alg), "--issuer", "https://issuer.test",
                                        "--audience", "api", "--subject", "alice", "--expires-in", "10m"]
                                       + JWSCommandTests.keyArguments(alg, pair.privatePEM))
        #expect(signed.status == 0, "\(signed.stderr)")
        var request = try JWSCommandTests.peerKey(alg, pair.publicPEM)
        request["op"] = "jwt-decode"
        request["alg"] = JWSCommandTests.jose(alg)
        request["token"] = signed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        request["audience"] = "api"
        request["issuer"] = "https://issuer.test"
        let answer = try JOSEPeer.call(request)
        #expect(answer["ok"] as? Bool == true, "\(answer)")
        let claims = answer["claims"] as? [String: Any]
        #expect(claims?["sub"] as? String == "alice")
        #expect((claims?["exp"] as? Int).map { $0 > Int(Date().timeIntervalSince1970) } == true)
    }

    @Test("PyJWT signs, keytool verifies and writes the claims", .needs(python: "jwt", "jwcrypto"), arguments: algorithms)
    func pyJWTToKeytool(_ alg: String) throws {
        let pair = try JOSEKeyFiles.get().pair(for: alg)
        var request = try JWSCommandTests.peerKey(alg, pair.privatePEM)
        request["op"] = "jwt-encode"
        request["alg"] = JWSCommandTests.jose(alg)
        request["claims"] = ["sub": "bob", "aud": ["api", "web"], "iss": "https://issuer.test", "exp": Int(Date().timeIntervalSince1970) + 600]
        let answer = try JOSEPeer.call(request)
        let token = try #require(answer["token"] as? String, "\(answer)")
        let verified = try CLIRunner.run(["jwt", "verify", "-", "--issuer", "https://issuer.test", "--audience", "web"]
                                         + JWSCommandTests.keyArguments(alg, pair.publicPEM), stdin: Array(token.utf8))
        #expect(verified.status == 0, "\(verified.stderr)")
        let claims = try JSONSerialization.jsonObject(with: Data(verified.stdoutBytes)) as? [String: Any]
        #expect(claims?["sub"] as? String == "bob")
    }

    /// A token with fixed times, signed once: iat 2030-01-01T00:00:00Z, nbf +60 s, exp +3600 s.
    static func fixedToken(_ pair: JOSEKeyFiles.Pair) throws -> [UInt8] {
        let claims = try TestScratch.directory("jwt-claims").appendingPathComponent("claims.json")
        try Data(#"{"iss":"https://issuer.test","aud":["api"],"sub":"alice","iat":1893456000,"nbf":1893456060,"exp":1893459600}"#.utf8).write(to: claims)
        let signed = try CLIRunner.run(["jwt", "sign", "--claims", claims.path, "--no-issued-at", "--key", pair.privatePEM])
        #expect(signed.status == 0, "\(signed.stderr)")
        return signed.stdoutBytes
    }

    @Test("each claim check refuses with status 1 and says why; leeway and --at move the clock")
    func claimChecks() throws {
        let pair = try JOSEKeyFiles.get().pair(for: "ES256")
        let token = try Self.fixedToken(pair)
        let key = ["--key", pair.publicPEM]
        let cases: [(arguments: [String], status: Int32, says: String)] = [
            (["--at", "2030-01-01T00:30:00Z"], 1, "no expected audience was given"),
            (["--at", "2030-01-01T00:30:00Z", "--audience", "api"], 0, ""),
            (["--at", "2030-01-01T01:00:00Z", "--audience", "api"], 1, "expired at 2030-01-01T01:00:00Z"),
            (["--at", "2030-01-01T01:00:30Z", "--leeway", "1m", "--audience", "api"], 0, ""),
            (["--at", "2030-01-01T00:00:30Z", "--audience", "api"], 1, "2030-01-01T00:01:00Z"),
            (["--at", "@1893456050", "--leeway", "15s", "--audience", "api"], 0, ""),
            (["--at", "2030-01-01T00:30:00Z", "--audience", "api", "--issuer", "https://other.test"], 1, "https://other.test"),
            (["--at", "2030-01-01T00:30:00Z", "--audience", "web"], 1, "web"),
            (["--at", "2030-01-01T00:30:00Z", "--audience", "web", "--audience", "api"], 0, ""),
            (["--at", "2030-01-01T00:30:00Z", "--audience", "api", "--subject", "mallory"], 1, "mallory"),
            (["--at", "2030-01-01T00:30:00Z", "--audience", "api", "--require", "jti"], 1, "jti"),
        ]
        for check in cases {
            let result = try CLIRunner.run(["jwt", "verify", "-"] + key + check.arguments, stdin: token)
            #expect(result.status == check.status, "\(check.arguments): \(result.stderr)")
            if !check.says.isEmpty { #expect(result.stderr.contains(check.says), "\(check.arguments): \(result.stderr)") }
            if check.status != 0 { #expect(result.stdout.isEmpty) }
        }
        let json = try CLIRunner.run(["jwt", "verify", "-", "--json", "--at", "2031-01-01T00:00:00Z", "--audience", "api"] + key, stdin: token)
        #expect(json.status == 1)
        #expect(json.stdout.contains("\"code\":\"expired\""), "\(json.stdout)")
    }

    @Test("decode shows header and claims marked unverified, even for a token nobody could verify")
    func decode() throws {
        let pair = try JOSEKeyFiles.get().pair(for: "ES256")
        var token = try Self.fixedToken(pair)
        // A different signature: the last character before the newline changed to another letter.
        token[token.count - 3] = token[token.count - 3] == UInt8(ascii: "A") ? UInt8(ascii: "Q") : UInt8(ascii: "A")
        let shown = try CLIRunner.run(["jwt", "decode", "-"], stdin: token)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.hasPrefix("UNVERIFIED"))
        #expect(shown.stdout.contains("\"sub\":\"alice\""))
        #expect(shown.stdout.contains("exp: 2030-01-01T01:00:00Z"))
        let json = try CLIRunner.run(["jwt", "decode", "-", "--json"], stdin: token)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdoutBytes)) as? [String: Any]
        #expect(object?["verified"] as? Bool == false)
        let garbage = try CLIRunner.run(["jwt", "decode", "-"], stdin: Array("a.b".utf8))
        #expect(garbage.status == 2)
    }

    @Test("tokens pasted with CRLF, a BOM or surrounding blanks are read")
    func pastedTokens() throws {
        let pair = try JOSEKeyFiles.get().pair(for: "EdDSA")
        let token = try CLIRunner.run(["jwt", "sign", "--key", pair.privatePEM, "--expires-in", "5m"]).stdoutBytes
        let body = Array(String(decoding: token, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        let pasted = [0xEF, 0xBB, 0xBF, 0x20] + body + Array("\r\n\r\n".utf8)
        let result = try CLIRunner.run(["jwt", "verify", "-", "--key", pair.publicPEM], stdin: pasted)
        #expect(result.status == 0, "\(result.stderr)")
    }
}
