import CofferTestSupport
import Foundation
import Testing

/// `keytool jwe encrypt|decrypt` against jwcrypto: every key management algorithm both ways, every
/// content encryption, compression, and the refusals (RSA1_5 without its flag, a PBES2 count over
/// the cap, a zip bomb, an altered tag, a wrong key).
@Suite("keytool jwe: interop with jwcrypto, refusals")
struct JWECommandTests {
    /// One recipient kind: the key management algorithm, keytool's key arguments for encrypting and
    /// decrypting, and the peer's key members.
    struct Case: Sendable, CustomStringConvertible {
        var alg: String
        var encryptKey: [String]
        var decryptKey: [String]
        var peerPublic: [String: String]
        var peerPrivate: [String: String]
        var description: String { alg + (encryptKey.last.map { " (\(URL(fileURLWithPath: $0).lastPathComponent))" } ?? "") }
    }

    /// Keys made by openssl: RSA, P-256/384/521, X25519, X448, secrets of 16, 24, 32 bytes.
    struct Keys: Sendable {
        let directory: URL
        let cases: [Case]
        static let shared: Result<Keys, any Error> = Result { try Keys() }

        private init() throws {
            directory = try TestScratch.directory("jwe-keys")
            let keys = try JOSEKeyFiles.get()
            func pem(_ path: String) throws -> String { try JOSEKeyFiles.text(path) }
            var made: [String: (String, String)] = [:]
            for (name, algorithm) in [("x25519", "X25519"), ("x448", "X448")] {
                let privatePath = directory.appendingPathComponent("\(name).pem").path
                let publicPath = directory.appendingPathComponent("\(name).pub.pem").path
                try ToolProcess.output(tool: "openssl", ["genpkey", "-algorithm", algorithm, "-out", privatePath])
                try ToolProcess.output(tool: "openssl", ["pkey", "-in", privatePath, "-pubout", "-out", publicPath])
                made[name] = (privatePath, publicPath)
            }
            var secrets: [Int: String] = [:]
            for size in [16, 24, 32] {
                let path = directory.appendingPathComponent("secret\(size).key").path
                try ToolProcess.output(tool: "openssl", ["rand", "-out", path, "\(size)"])
                secrets[size] = path
            }
            let passphrase = directory.appendingPathComponent("passphrase.txt").path
            try Data("correct horse battery staple".utf8).write(to: URL(fileURLWithPath: passphrase))

            func pair(_ privatePath: String, _ publicPath: String) throws -> ([String], [String], [String: String], [String: String]) {
                (["--key", publicPath], ["--key", privatePath], ["pem": try pem(publicPath)], ["pem": try pem(privatePath)])
            }
            func secret(_ size: Int) throws -> ([String], [String], [String: String], [String: String]) {
                let path = secrets[size]!
                let encoded = JOSEPeer.base64URL(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
                return (["--secret", path], ["--secret", path], ["secret": encoded], ["secret": encoded])
            }
            let rsa = keys.pairs["rsa"]!, p256 = keys.pairs["p256"]!, p384 = keys.pairs["p384"]!, p521 = keys.pairs["p521"]!
            var cases: [Case] = []
            func add(_ alg: String, _ material: ([String], [String], [String: String], [String: String])) {
                cases.append(Case(alg: alg, encryptKey: material.0, decryptKey: material.1, peerPublic: material.2, peerPrivate: material.3))
            }
            add("RSA-OAEP", try pair(rsa.privatePEM, rsa.publicPEM))
            add("RSA-OAEP-256", try pair(rsa.privatePEM, rsa.publicPEM))
            for curve in [p256, p384, p521] { add("ECDH-ES", try pair(curve.privatePEM, curve.publicPEM)) }
            for name in ["x25519", "x448"] { add("ECDH-ES", try pair(made[name]!.0, made[name]!.1)) }
            for alg in ["ECDH-ES+A128KW", "ECDH-ES+A192KW", "ECDH-ES+A256KW"] { add(alg, try pair(p256.privatePEM, p256.publicPEM)) }
            add("ECDH-ES+A256KW", try pair(made["x25519"]!.0, made["x25519"]!.1))
            for (alg, size) in [("A128KW", 16), ("A192KW", 24), ("A256KW", 32), ("A128GCMKW", 16), ("A192GCMKW", 24), ("A256GCMKW", 32), ("dir", 32)] {
                add(alg, try secret(size))
            }
            let phrase = JOSEPeer.base64URL(Array("correct horse battery staple".utf8))
            for alg in ["PBES2-HS256+A128KW", "PBES2-HS384+A192KW", "PBES2-HS512+A256KW"] {
                cases.append(Case(alg: alg, encryptKey: ["--passphrase-file", passphrase, "--p2c", "10000"],
                                  decryptKey: ["--passphrase-file", passphrase], peerPublic: ["secret": phrase], peerPrivate: ["secret": phrase]))
            }
            self.cases = cases
        }
    }

    static func cases() -> [Case] { (try? Keys.shared.get().cases) ?? [] }

    static let plaintext = Array("Live long and prosper. {\"n\": 42}\n".utf8)

    /// The parameterized tests get no case when making the keys failed: this one fails instead.
    @Test("every recipient kind has its keys (21 cases)")
    func recipientKinds() throws {
        #expect(try Keys.shared.get().cases.count == 21)
    }

    @Test("keytool encrypts, jwcrypto decrypts", .needs(python: "jwcrypto"), arguments: cases())
    func keytoolToJwcrypto(_ recipient: Case) throws {
        let enc = recipient.alg == "dir" ? "A256GCM" : "A128CBC-HS256"
        let encrypted = try CLIRunner.run(["jwe", "encrypt", "-", "--alg", recipient.alg, "--enc", enc] + recipient.encryptKey, stdin: Self.plaintext)
        #expect(encrypted.status == 0, "\(encrypted.stderr)")
        var request: [String: Any] = recipient.peerPrivate
        request["op"] = "jwe-decrypt"
        request["token"] = encrypted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let answer = try JOSEPeer.call(request)
        #expect(answer["ok"] as? Bool == true, "\(answer)")
        #expect((answer["plaintext"] as? String).flatMap(JOSEPeer.bytes(base64URL:)) == Self.plaintext)
    }

    @Test("jwcrypto encrypts, keytool decrypts; another key is refused with status 1", .needs(python: "jwcrypto"), arguments: cases())
    func jwcryptoToKeytool(_ recipient: Case) throws {
        var request: [String: Any] = recipient.peerPublic
        request["op"] = "jwe-encrypt"
        request["alg"] = recipient.alg
        request["enc"] = "A256GCM"
        request["plaintext"] = JOSEPeer.base64URL(Self.plaintext)
        let answer = try JOSEPeer.call(request)
        let token = try #require(answer["token"] as? String, "\(answer)")
        let decrypted = try CLIRunner.run(["jwe", "decrypt", "-"] + recipient.decryptKey, stdin: Array(token.utf8))
        #expect(decrypted.status == 0, "\(decrypted.stderr)")
        #expect(decrypted.stdoutBytes == Self.plaintext)
    }

    @Test("every content encryption both ways, with and without zip", .needs(python: "jwcrypto"),
          arguments: ["A128GCM", "A192GCM", "A256GCM", "A128CBC-HS256", "A192CBC-HS384", "A256CBC-HS512"])
    func contentEncryptions(_ enc: String) throws {
        let recipient = try #require(Self.cases().first { $0.alg == "A256KW" })
        for zip in [false, true] {
            let encrypted = try CLIRunner.run(["jwe", "encrypt", "-", "--alg", "A256KW", "--enc", enc] + (zip ? ["--zip"] : []) + recipient.encryptKey,
                                              stdin: Self.plaintext)
            #expect(encrypted.status == 0, "\(encrypted.stderr)")
            var request: [String: Any] = recipient.peerPrivate
            request["op"] = "jwe-decrypt"
            request["token"] = encrypted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect((try JOSEPeer.call(request)["plaintext"] as? String).flatMap(JOSEPeer.bytes(base64URL:)) == Self.plaintext, "\(enc) zip \(zip)")

            var back: [String: Any] = recipient.peerPublic
            back["op"] = "jwe-encrypt"
            back["alg"] = "A256KW"
            back["enc"] = enc
            back["zip"] = zip
            back["plaintext"] = JOSEPeer.base64URL(Self.plaintext)
            let token = try #require(try JOSEPeer.call(back)["token"] as? String)
            let decrypted = try CLIRunner.run(["jwe", "decrypt", "-"] + recipient.decryptKey, stdin: Array(token.utf8))
            #expect(decrypted.status == 0 && decrypted.stdoutBytes == Self.plaintext, "\(enc) zip \(zip): \(decrypted.stderr)")
        }
    }

    @Test("RSA1_5 from jwcrypto is refused unless --allow-rsa1_5", .needs(python: "jwcrypto"))
    func rsa1_5() throws {
        let recipient = try #require(Self.cases().first { $0.alg == "RSA-OAEP" })
        var request: [String: Any] = recipient.peerPublic
        request["op"] = "jwe-encrypt"
        request["alg"] = "RSA1_5"
        request["enc"] = "A128CBC-HS256"
        request["plaintext"] = JOSEPeer.base64URL(Self.plaintext)
        let token = try #require(try JOSEPeer.call(request)["token"] as? String)
        let refused = try CLIRunner.run(["jwe", "decrypt", "-"] + recipient.decryptKey, stdin: Array(token.utf8))
        #expect(refused.status == 1 && refused.stderr.contains("RSA1_5"), "\(refused.stderr)")
        let allowed = try CLIRunner.run(["jwe", "decrypt", "-", "--allow-rsa1_5"] + recipient.decryptKey, stdin: Array(token.utf8))
        #expect(allowed.status == 0 && allowed.stdoutBytes == Self.plaintext, "\(allowed.stderr)")
        let encrypt = try CLIRunner.run(["jwe", "encrypt", "-", "--alg", "RSA1_5"] + recipient.encryptKey, stdin: Self.plaintext)
        #expect(encrypt.status == 64)
    }

    @Test("refused: a PBES2 count over the cap before any work, a zip bomb, an altered tag, a wrong key, garbage")
    func refusals() throws {
        let all = Self.cases()
        let pbes2 = try #require(all.first { $0.alg == "PBES2-HS256+A128KW" })
        let heavy = try CLIRunner.run(["jwe", "encrypt", "-", "--alg", pbes2.alg, "--p2c", "200000"] + pbes2.encryptKey.filter { $0 != "--p2c" && $0 != "10000" },
                                      stdin: Self.plaintext)
        #expect(heavy.status == 0, "\(heavy.stderr)")
        let capped = try CLIRunner.run(["jwe", "decrypt", "-", "--max-p2c", "100000"] + pbes2.decryptKey, stdin: heavy.stdoutBytes)
        #expect(capped.status == 1 && capped.stderr.contains("--max-p2c"), "\(capped.stderr)")

        // 32 MiB of zeros deflate to about 32 KiB: over the default 16 MiB inflation cap.
        let kw = try #require(all.first { $0.alg == "A256KW" })
        let bomb = try CLIRunner.run(["jwe", "encrypt", "-", "--alg", "A256KW", "--zip"] + kw.encryptKey, stdin: [UInt8](repeating: 0, count: 32 << 20))
        #expect(bomb.status == 0 && bomb.stdoutBytes.count < 200_000, "\(bomb.stderr)")
        let inflated = try CLIRunner.run(["jwe", "decrypt", "-"] + kw.decryptKey, stdin: bomb.stdoutBytes)
        #expect(inflated.status == 2 && inflated.stdout.isEmpty && inflated.stderr.contains("inflat"), "\(inflated.stderr)")
        let raised = try CLIRunner.run(["jwe", "decrypt", "-", "--max-inflated-size", "\(40 << 20)", "--max-inflation-ratio", "2000", "-o", "/dev/null"]
                                       + kw.decryptKey, stdin: bomb.stdoutBytes)
        #expect(raised.status == 0, "\(raised.stderr)")

        let good = try CLIRunner.run(["jwe", "encrypt", "-", "--alg", "A256KW"] + kw.encryptKey, stdin: Self.plaintext).stdoutBytes
        var altered = good
        let tagEnd = altered.count - 2
        altered[tagEnd] = altered[tagEnd] == UInt8(ascii: "A") ? UInt8(ascii: "Q") : UInt8(ascii: "A")
        let tampered = try CLIRunner.run(["jwe", "decrypt", "-"] + kw.decryptKey, stdin: altered)
        #expect(tampered.status == 1 && tampered.stdout.isEmpty, "\(tampered.stderr)")

        let otherSecret = try TestScratch.directory("jwe-other-key").appendingPathComponent("other32.key").path
        try ToolProcess.output(tool: "openssl", ["rand", "-out", otherSecret, "32"])
        let wrongKey = try CLIRunner.run(["jwe", "decrypt", "-", "--json", "--secret", otherSecret], stdin: good)
        #expect(wrongKey.status == 1 && wrongKey.stdout.contains("\"valid\":false"), "\(wrongKey.stdout)")

        let garbage = try CLIRunner.run(["jwe", "decrypt", "-"] + kw.decryptKey, stdin: Array("a.b.c.d".utf8))
        #expect(garbage.status == 2)
    }

    @Test("a nested JWT: signed by one key, encrypted to another, verified with both")
    func nestedJWT() throws {
        let signer = try JOSEKeyFiles.get().pair(for: "ES256")
        let recipient = try #require(Self.cases().first { $0.alg == "RSA-OAEP-256" })
        // The inner token names a kid the key file does not state: a key named with --key is tried
        // whatever kid the token names, nested or not.
        let token = try CLIRunner.run(["jwt", "sign", "--key", signer.privatePEM, "--kid", "signer-7", "--subject", "nested",
                                       "--expires-in", "5m", "--encrypt-to", recipient.encryptKey[1]])
        #expect(token.status == 0, "\(token.stderr)")
        #expect(token.stdout.split(separator: ".").count == 5)
        let verified = try CLIRunner.run(["jwt", "verify", "-", "--key", signer.publicPEM, "--decrypt-key", recipient.decryptKey[1]], stdin: token.stdoutBytes)
        #expect(verified.status == 0 && verified.stdout.contains("\"sub\":\"nested\""), "\(verified.stderr)")
        let withoutKey = try CLIRunner.run(["jwt", "verify", "-", "--key", signer.publicPEM], stdin: token.stdoutBytes)
        #expect(withoutKey.status == 2 && withoutKey.stderr.contains("--decrypt-key"))
    }
}
