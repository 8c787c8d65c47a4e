import CofferTestSupport
import Foundation
import Testing

/// `keytool` on JWK, JWK Sets and PKCS#12 files, and `keytool match`, against joserfc's and
/// openssl's facts and the real openssl.
@Suite("keytool on JWK and PKCS#12, and match")
struct ContainerCommandTests {
    static let passphraseFile = CLIRunner.fixture("keys/passphrase.txt")

    static func object(_ line: some StringProtocol) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    static func temporary(_ name: String) -> String {
        TestScratch.path("keytool-container-\(name)")
    }

    @Test("inspect --json on a JWK Set prints each key with kid, use, alg and its thumbprint")
    func inspectJWKSet() throws {
        let result = try CLIRunner.run(["inspect", "--json", CLIRunner.fixture("keys/jwk/set.jwks")])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        let facts = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: CLIRunner.fixture("keys/jwk/facts.json")))) as? [String: Any])
        let set = try #require(facts["set"] as? [[String: Any]])
        for (line, fact) in zip(lines, set) {
            let object = try Self.object(line)
            #expect(object["format"] as? String == "jwk-set")
            #expect(object["encoding"] as? String == "json")
            #expect(object["kid"] as? String == fact["kid"] as? String)
            #expect(object["use"] as? String == fact["use"] as? String)
            #expect(object["alg"] as? String == fact["alg"] as? String)
            #expect(object["jwkThumbprint"] as? String == fact["thumbprint"] as? String)
        }
    }

    @Test("inspect --json prints the SPKI pin openssl computes, for every algorithm",
          arguments: ["rsa2048", "ec-p384", "ed448", "x25519"])
    func spkiPin(_ name: String) throws {
        let key = CLIRunner.fixture("keys/\(name).pkcs8.pem")
        let result = try CLIRunner.run(["inspect", "--json", key])
        #expect(result.status == 0, "\(result.stderr)")
        let der = try ToolProcess.run(tool: "openssl", ["pkey", "-in", key, "-pubout", "-outform", "DER"])
        let digest = try ToolProcess.run(tool: "openssl", ["dgst", "-sha256", "-binary"], stdin: der.stdout)
        #expect(try Self.object(result.stdout)["spkiSHA256"] as? String == Data(digest.stdout).base64EncodedString())
    }

    @Test("convert --to jwk and jwk-public write the members joserfc wrote")
    func convertToJWK() throws {
        let facts = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: CLIRunner.fixture("keys/jwk/facts.json")))) as? [String: Any])
        for fact in try #require(facts["keys"] as? [[String: Any]]) {
            let source = CLIRunner.fixture("keys/\(try #require(fact["source"] as? String))")
            for (format, members) in [("jwk", fact["private"]), ("jwk-public", fact["public"])] {
                let result = try CLIRunner.run(["convert", source, "--to", format])
                #expect(result.status == 0, "\(result.stderr)")
                let written = try Self.object(result.stdout) as NSDictionary
                #expect(written == (try #require(members as? [String: String])) as NSDictionary, "\(source) \(format)")
            }
        }
    }

    @Test("inspect lists every bag of a PKCS#12 file with its attributes; a wrong passphrase says so")
    func inspectPKCS12() throws {
        let file = CLIRunner.fixture("keys/pkcs12/rsa2048-legacy.p12")
        let result = try CLIRunner.run(["inspect", "--json", "--passphrase-file", Self.passphraseFile, file])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try result.stdout.split(separator: "\n").map { try Self.object($0) }
        #expect(objects.map { $0["bag"] as? String } == ["certBag", "pkcs8ShroudedKeyBag"])
        #expect(objects.map { $0["private"] as? Bool } == [false, true])
        #expect(objects.map { $0["friendlyName"] as? String } == ["Coffer RSA", "Coffer RSA"])
        #expect(objects.map { $0["cipher"] as? String } == ["rc2-40-cbc", "des-ede3-cbc"])
        let wrong = Self.temporary("wrong")
        try Data("not it".utf8).write(to: URL(fileURLWithPath: wrong))
        let refused = try CLIRunner.run(["inspect", "--passphrase-file", wrong, file])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("MAC (HMAC-SHA1, 2048 iterations) does not verify: wrong passphrase"), "\(refused.stderr)")
    }

    @Test("convert --to pkcs12 with a certificate: openssl reads the key and the certificate back", arguments: [false, true])
    func convertToPKCS12(legacy: Bool) throws {
        let out = Self.temporary("out.p12")
        defer { try? FileManager.default.removeItem(atPath: out) }
        var arguments = ["convert", CLIRunner.fixture("keys/rsa2048.pkcs1.pem"), "--to", "pkcs12", "--certificate", CLIRunner.fixture("keys/rsa2048.cert.pem"),
                         "--name", "coffer", "--new-passphrase-file", Self.passphraseFile, "-o", out]
        if legacy { arguments.append("--legacy") }
        let result = try CLIRunner.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        var info = ["pkcs12", "-in", out, "-passin", "file:\(Self.passphraseFile)", "-noenc"]
        if legacy { info.append("-legacy") }
        let openssl = try ToolProcess.run(tool: "openssl", info)
        #expect(openssl.status == 0, "\(openssl.stderr)")
        #expect(openssl.text.contains("-----BEGIN CERTIFICATE-----"))
        #expect(openssl.text.contains("-----BEGIN PRIVATE KEY-----"))
        #expect(openssl.text.components(separatedBy: "localKeyID:").count == 3, "the key and its certificate share a localKeyID")
        // Back to PKCS#8: the same key as the input.
        let back = try CLIRunner.run(["convert", "--passphrase-file", Self.passphraseFile, out, "--to", "pkcs8"])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stdout == (try String(contentsOfFile: CLIRunner.fixture("keys/rsa2048.pkcs8.pem"), encoding: .utf8)))
    }

    @Test("convert - --to pkcs12 reads and decrypts a PKCS#12 input from stdin once, keeping its key and both certificates")
    func convertPKCS12FromStdin() throws {
        let input = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.fixture("keys/pkcs12/ec-p256-chain.p12")))
        let out = Self.temporary("stdin.p12")
        defer { try? FileManager.default.removeItem(atPath: out) }
        // The input passphrase is given once, in the environment; stdin can be read only once.
        let passphrase = try String(contentsOfFile: Self.passphraseFile, encoding: .utf8).trimmingCharacters(in: .newlines)
        let result = try CLIRunner.run(["convert", "--passphrase-env", "COFFER_TEST_PASS", "-", "--to", "pkcs12",
                                        "--new-passphrase-file", Self.passphraseFile, "-o", out],
                                       stdin: Array(input), environment: ["COFFER_TEST_PASS": passphrase])
        #expect(result.status == 0, "\(result.stderr)")
        let openssl = try ToolProcess.run(tool: "openssl", ["pkcs12", "-in", out, "-passin", "file:\(Self.passphraseFile)", "-noenc"])
        #expect(openssl.status == 0, "\(openssl.stderr)")
        #expect(openssl.text.components(separatedBy: "-----BEGIN CERTIFICATE-----").count == 3, "both certificates of the chain")
        #expect(openssl.text.contains("-----BEGIN PRIVATE KEY-----"))
        let original = try ToolProcess.run(tool: "openssl", ["pkcs12", "-in", CLIRunner.fixture("keys/pkcs12/ec-p256-chain.p12"),
                                                             "-passin", "file:\(Self.passphraseFile)", "-noenc", "-nocerts"])
        let rewritten = try ToolProcess.run(tool: "openssl", ["pkcs12", "-in", out, "-passin", "file:\(Self.passphraseFile)", "-noenc", "-nocerts"])
        #expect(original.status == 0 && rewritten.status == 0)
        let key = { (text: String) in text.components(separatedBy: "-----BEGIN PRIVATE KEY-----").last ?? "" }
        #expect(key(rewritten.text) == key(original.text), "the same private key")
    }

    @Test("match groups the files that hold one key, across every container")
    func match() throws {
        let same = ["keys/ec-p256.pkcs8.pem", "keys/ec-p256.openssh.pub", "keys/jwk/ec-p256.public.jwk", "keys/ec-p256.sec1.der",
                    "keys/ec-p256.rfc4716.pub", "keys/ec-p256.openssh-aes256-ctr"].map(CLIRunner.fixture)
        let all = try CLIRunner.run(["match", "--passphrase-file", Self.passphraseFile] + same)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout.split(separator: "\n").count == 1)
        #expect(all.stdout.hasPrefix("GCQ2kA9r2fpSzlmlP2dKruC72j1/YjccIVm3MDC9dpw= EC (P-256): "))
        let mixed = try CLIRunner.run(["match", "--json", "--passphrase-file", Self.passphraseFile, CLIRunner.fixture("keys/rsa2048.cert.pem"),
                                       CLIRunner.fixture("keys/ec-p256.spki.pem"), CLIRunner.fixture("keys/pkcs12/rsa2048-modern.p12"),
                                       CLIRunner.fixture("keys/jwk/rsa2048.jwk")])
        #expect(mixed.status == 1)
        let groups = try mixed.stdout.split(separator: "\n").map { try Self.object($0) }
        #expect(groups.count == 2)
        #expect((groups[0]["files"] as? [String])?.count == 3)
        #expect(groups[1]["curve"] as? String == "P-256")
        let unreadable = try CLIRunner.run(["match", CLIRunner.fixture("keys/ec-p256.pkcs8.pem"), "/nonexistent/key.pem"])
        #expect(unreadable.status == 1)
        #expect(unreadable.stderr.contains("/nonexistent/key.pem"))
    }
}
