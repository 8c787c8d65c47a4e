import CofferTestSupport
import Foundation
import Testing

/// `keytool jws sign|verify` against the real peers: every algorithm signed by keytool and
/// verified by jwcrypto, signed by jwcrypto and verified by keytool; the verdicts' exit statuses,
/// the JSON verdict, the refusals, a JWK Set served over HTTP.
@Suite("keytool jws: interop with jwcrypto, verdicts, refusals")
struct JWSCommandTests {
    /// Every JWS algorithm keytool and jwcrypto share; `EdDSA-Ed448` is EdDSA with an Ed448 key.
    static let algorithms = ["HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512",
                             "ES256", "ES384", "ES512", "ES256K", "EdDSA", "EdDSA-Ed448"]

    static func jose(_ alg: String) -> String { alg.hasPrefix("EdDSA") ? "EdDSA" : alg }

    /// The key arguments of keytool for `pair`: `--secret` for HMAC keys, `--key` otherwise.
    static func keyArguments(_ alg: String, _ path: String) -> [String] {
        alg.hasPrefix("HS") ? ["--secret", path] : ["--key", path]
    }

    /// The peer's key member for `path`: a PEM, or the secret's bytes.
    static func peerKey(_ alg: String, _ path: String) throws -> [String: Any] {
        if alg.hasPrefix("HS") { return ["secret": JOSEPeer.base64URL(Array(try Data(contentsOf: URL(fileURLWithPath: path))))] }
        return ["pem": try JOSEKeyFiles.text(path)]
    }

    static let payload = Array("It’s a dangerous business, Frodo, going out your door. {\"n\": 1}\n".utf8)

    @Test("keytool signs, jwcrypto verifies", .needs(python: "jwcrypto"), arguments: algorithms)
    func keytoolToJwcrypto(_ alg: String) throws {
        let keys = try JOSEKeyFiles.get()
        let pair = keys.pair(for: alg)
        let signed = try CLIRunner.run(["jws", "sign", "-", "--alg", Self.jose(alg)] + Self.keyArguments(alg, pair.privatePEM), stdin: Self.payload)
        #expect(signed.status == 0, "\(signed.stderr)")
        let token = signed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        var request = try Self.peerKey(alg, pair.publicPEM)
        request["op"] = "jws-verify"
        request["alg"] = Self.jose(alg)
        request["token"] = token
        let answer = try JOSEPeer.call(request)
        #expect(answer["ok"] as? Bool == true, "\(answer)")
        #expect((answer["payload"] as? String).flatMap(JOSEPeer.bytes(base64URL:)) == Self.payload)
    }

    @Test("jwcrypto signs, keytool verifies; a flipped signature bit is refused with status 1", .needs(python: "jwcrypto"), arguments: algorithms)
    func jwcryptoToKeytool(_ alg: String) throws {
        let keys = try JOSEKeyFiles.get()
        let pair = keys.pair(for: alg)
        var request = try Self.peerKey(alg, pair.privatePEM)
        request["op"] = "jws-sign"
        request["alg"] = Self.jose(alg)
        request["payload"] = JOSEPeer.base64URL(Self.payload)
        let answer = try JOSEPeer.call(request)
        let token = try #require(answer["token"] as? String, "\(answer)")
        let verified = try CLIRunner.run(["jws", "verify", "-"] + Self.keyArguments(alg, pair.publicPEM), stdin: Array(token.utf8))
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.stdoutBytes == Self.payload)
        #expect(verified.stderr.contains("Verified OK (\(Self.jose(alg))"))

        var tampered = Array(token.utf8)
        let last = tampered.count - 3
        tampered[last] = tampered[last] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let refused = try CLIRunner.run(["jws", "verify", "-"] + Self.keyArguments(alg, pair.publicPEM), stdin: tampered)
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
    }

    @Test("--json prints one verdict object, valid or not, with the same exit statuses")
    func jsonVerdict() throws {
        let pair = try JOSEKeyFiles.get().pair(for: "ES256")
        let token = try CLIRunner.run(["jws", "sign", "-", "--key", pair.privatePEM, "--kid", "k1"], stdin: Self.payload).stdoutBytes
        let valid = try CLIRunner.run(["jws", "verify", "-", "--key", pair.publicPEM, "--json"], stdin: token)
        #expect(valid.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(valid.stdoutBytes)) as? [String: Any])
        #expect(object["valid"] as? Bool == true && object["alg"] as? String == "ES256" && object["kid"] as? String == "k1")
        #expect((object["payload"] as? String).flatMap(JOSEPeer.bytes(base64URL:)) == Self.payload)

        let other = try JOSEKeyFiles.get().pair(for: "ES384")
        let wrongKey = try CLIRunner.run(["jws", "verify", "-", "--key", other.publicPEM, "--json"], stdin: token)
        #expect(wrongKey.status == 1)
        let refusal = try #require(try JSONSerialization.jsonObject(with: Data(wrongKey.stdoutBytes)) as? [String: Any])
        #expect(refusal["valid"] as? Bool == false)
        #expect(refusal["code"] as? String == "algorithmNotAllowed")

        let unreadable = try CLIRunner.run(["jws", "verify", "-", "--key", pair.publicPEM, "--json"], stdin: Array("not a token".utf8))
        #expect(unreadable.status == 2)
        #expect(unreadable.stdout.contains("\"code\":\"malformed\""))
    }

    @Test("refused: alg none, HMAC keyed with a public key's bytes, an algorithm --alg excludes, unknown crit")
    func refusals() throws {
        let pair = try JOSEKeyFiles.get().pair(for: "RS256")
        // alg none, with and without a signature segment.
        for token in ["eyJhbGciOiJub25lIn0.aGk.", "eyJhbGciOiJub25lIn0.aGk.AAAA"] {
            let result = try CLIRunner.run(["jws", "verify", "-", "--key", pair.publicPEM], stdin: Array(token.utf8))
            #expect(result.status != 0 && result.stdout.isEmpty, "\(token)")
        }
        let none = try CLIRunner.run(["jws", "verify", "-", "--key", pair.publicPEM], stdin: Array("eyJhbGciOiJub25lIn0.aGk.AAAA".utf8))
        #expect(none.status == 1 && none.stderr.contains("\"none\""))

        // Algorithm confusion: the verifier's public PEM used as an HMAC secret by the forger.
        let forged = try CLIRunner.run(["jws", "sign", "-", "--secret", pair.publicPEM, "--alg", "HS256"], stdin: Self.payload)
        #expect(forged.status == 0)
        let confused = try CLIRunner.run(["jws", "verify", "-", "--key", pair.publicPEM], stdin: forged.stdoutBytes)
        #expect(confused.status == 1 && confused.stderr.contains("HS256"), "\(confused.stderr)")

        let rs = try CLIRunner.run(["jws", "sign", "-", "--key", pair.privatePEM, "--alg", "RS256"], stdin: Self.payload)
        let excluded = try CLIRunner.run(["jws", "verify", "-", "--key", pair.publicPEM, "--alg", "PS256"], stdin: rs.stdoutBytes)
        #expect(excluded.status == 1 && excluded.stderr.contains("PS256"))

        // crit naming a member nobody declared understood: {"alg":"RS256","crit":["exp"],"exp":1}.
        let header = JOSEPeer.base64URL(Array("{\"alg\":\"RS256\",\"crit\":[\"exp\"],\"exp\":1}".utf8))
        let critToken = "\(header).aGk.AAAA"
        let crit = try CLIRunner.run(["jws", "verify", "-", "--key", pair.publicPEM], stdin: Array(critToken.utf8))
        #expect(crit.status == 1 && crit.stderr.contains("exp"), "\(crit.stderr)")
    }

    @Test("JSON serializations, detached and unencoded payloads round-trip through keytool")
    func serializations() throws {
        let pair = try JOSEKeyFiles.get().pair(for: "EdDSA")
        let payloadFile = try TestScratch.directory("jws-payload").appendingPathComponent("payload.bin")
        try Data(Self.payload).write(to: payloadFile)
        for options in [["--json"], ["--flattened"], ["--detached"], ["--unencoded"], ["--json", "--unencoded"]] {
            let signed = try CLIRunner.run(["jws", "sign", payloadFile.path, "--key", pair.privatePEM] + options)
            #expect(signed.status == 0, "\(options): \(signed.stderr)")
            let detached = options.contains("--detached") || options == ["--unencoded"]
            let verified = try CLIRunner.run(["jws", "verify", "-", "--key", pair.publicPEM] + (detached ? ["--payload", payloadFile.path] : []),
                                             stdin: signed.stdoutBytes)
            #expect(verified.status == 0, "\(options): \(verified.stderr)")
            #expect(verified.stdoutBytes == Self.payload, "\(options)")
        }
    }

    @Test("--jwks URL: the set is fetched over HTTP, cached, and used offline")
    func remoteKeySet() throws {
        let pair = try JOSEKeyFiles.get().pair(for: "ES256")
        let jwk = try CLIRunner.run(["convert", pair.publicPEM, "--to", "jwk-public"])
        #expect(jwk.status == 0, "\(jwk.stderr)")
        var key = try #require(try JSONSerialization.jsonObject(with: Data(jwk.stdoutBytes)) as? [String: Any])
        key["kid"] = "issuer-1"
        let set = try JSONSerialization.data(withJSONObject: ["keys": [key]])
        let server = try FetchEchoServer(answer: Array(set))
        defer { server.stop() }
        let cache = try TestScratch.directory("jwks-cli-cache").path
        let token = try CLIRunner.run(["jws", "sign", "-", "--key", pair.privatePEM, "--kid", "issuer-1"], stdin: Self.payload).stdoutBytes

        let online = try CLIRunner.run(["jws", "verify", "-", "--jwks", server.url("/jwks.json"), "--jwks-cache", cache], stdin: token)
        #expect(online.status == 0, "\(online.stderr)")
        #expect(online.stdoutBytes == Self.payload)
        #expect(server.received.count == 1)

        server.stop()
        let offline = try CLIRunner.run(["jws", "verify", "-", "--jwks", server.url("/jwks.json"), "--jwks-cache", cache, "--offline"], stdin: token)
        #expect(offline.status == 0, "\(offline.stderr)")

        let unknown = try CLIRunner.run(["jws", "sign", "-", "--key", pair.privatePEM, "--kid", "issuer-9"], stdin: Self.payload).stdoutBytes
        let refused = try CLIRunner.run(["jws", "verify", "-", "--jwks", server.url("/jwks.json"), "--jwks-cache", cache, "--offline"], stdin: unknown)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("issuer-9"), "\(refused.stderr)")
    }
}
