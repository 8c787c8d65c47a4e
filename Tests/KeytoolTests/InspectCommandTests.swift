import CofferTestSupport
import Foundation
import Testing

/// `keytool inspect` and `fingerprint` over every fixture, against what openssl and ssh-keygen
/// reported for it (Fixtures/keys/facts.json).
@Suite("keytool inspect and fingerprint")
struct InspectCommandTests {
    typealias Fact = KeyFact

    static var facts: [KeyFact] {
        get throws { try KeyFact.all }
    }

    static var rsaFacts: [KeyFact] {
        get throws { try facts.filter { $0.algorithm == "rsa" } }
    }

    static var otherFacts: [KeyFact] {
        get throws { try facts.filter { $0.algorithm != "rsa" } }
    }
    static let passphraseFile = CLIRunner.fixture("keys/passphrase.txt")

    @Test func factsArePresent() throws {
        #expect(try Self.rsaFacts.count > 60)
        #expect(try Self.otherFacts.count >= 5)
    }

    @Test("inspect --json reports what openssl and ssh-keygen reported", arguments: try rsaFacts)
    func inspectJSON(_ fact: Fact) throws {
        let result = try CLIRunner.run(["inspect", "--json", "--passphrase-file", Self.passphraseFile, CLIRunner.fixture("keys/\(fact.file)")])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["format"] as? String == fact.format)
        #expect(object["encoding"] as? String == fact.encoding)
        #expect(object["algorithm"] as? String == "rsa")
        #expect(object["private"] as? Bool == fact.private)
        #expect(object["encrypted"] as? Bool == fact.encrypted)
        #expect(object["bits"] as? Int == fact.bits)
        #expect(object["modulus"] as? String == fact.modulus)
        #expect(object["publicExponent"] as? String == fact.publicExponent)
        #expect(object["fingerprintSHA256"] as? String == fact.fingerprintSHA256)
        #expect(object["fingerprintMD5"] as? String == fact.fingerprintMD5)
        if let cipher = fact.cipher { #expect(object["cipher"] as? String == cipher) }
        if let comment = fact.comment { #expect(object["comment"] as? String == comment) }
        #expect(object["privateExponent"] == nil, "private numbers need --show-private")
    }

    @Test func showPrivateAddsTheNumbers() throws {
        let result = try CLIRunner.run(["inspect", "--json", "--show-private", CLIRunner.fixture("keys/rsa2048-3prime.pkcs1.pem")])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        for field in ["privateExponent", "prime1", "prime2", "exponent1", "exponent2", "coefficient", "prime3"] {
            #expect((object[field] as? String)?.isEmpty == false, "\(field)")
        }
    }

    @Test func bundlePrintsEveryKey() throws {
        let result = try CLIRunner.run(["inspect", "--json", CLIRunner.fixture("keys/bundle.pem")])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].contains("\"format\":\"spki\""))
        #expect(lines[1].contains("\"format\":\"pkcs1-private\""))
        let text = try CLIRunner.run(["inspect", CLIRunner.fixture("keys/bundle.pem")])
        #expect(text.stdout.contains("[key 2 of 2]"))
    }

    @Test("fingerprint prints what ssh-keygen -l prints", arguments: try rsaFacts.filter { $0.format == "openssh-public" || $0.format == "openssh-private" && $0.encrypted == false })
    func fingerprint(_ fact: Fact) throws {
        let path = CLIRunner.fixture("keys/\(fact.file)")
        for hash in ["sha256", "md5"] {
            let mine = try CLIRunner.run(["fingerprint", "--hash", hash, path])
            #expect(mine.status == 0)
            let theirs = try CLIRunner.run(["-l", "-E", hash, "-f", path], tool: "/usr/bin/ssh-keygen")
            #expect(mine.stdout == theirs.stdout)
        }
    }

    @Test("DSA keys, refused before, are described (read only)")
    func dsaKeys() throws {
        let result = try CLIRunner.run(["inspect", "--json", CLIRunner.fixture("keys/dsa.pkcs8.pem")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""algorithm":"dsa""#), "\(result.stdout)")
    }

    @Test func passphraseProblemsAreDistinct() throws {
        let path = CLIRunner.fixture("keys/rsa2048.pkcs8-aes256-sha256.pem")
        let missing = try CLIRunner.run(["inspect", path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no passphrase was given"))
        let dir = try TestScratch.directory("keytool-inspect")
        defer { try? FileManager.default.removeItem(at: dir) }
        let wrong = dir.appendingPathComponent("wrong")
        try Data("not-the-passphrase\n".utf8).write(to: wrong)
        for file in ["rsa2048.pkcs8-aes256-sha256.pem", "rsa2048.legacy-des3.pem", "rsa2048.openssh-aes256-ctr", "rsa2048.pkcs8-scrypt.pem"] {
            let result = try CLIRunner.run(["inspect", "--passphrase-file", wrong.path, CLIRunner.fixture("keys/\(file)")])
            #expect(result.status == 1)
            #expect(result.stderr.contains("wrong passphrase, or the key is damaged"), "\(file): \(result.stderr)")
            #expect(!result.stderr.contains("not-the-passphrase"))
        }
        let env = try CLIRunner.run(["inspect", "--passphrase-env", "COFFER_TEST_PASS", path], environment: ["COFFER_TEST_PASS": "coffer-test-pass"])
        #expect(env.status == 0)
        let both = try CLIRunner.run(["inspect", "--passphrase-env", "X", "--passphrase-file", wrong.path, path])
        #expect(both.status == 64)
    }

    @Test func malformedInputNamesFileAndOffset() throws {
        let dir = try TestScratch.directory("keytool-inspect")
        defer { try? FileManager.default.removeItem(at: dir) }
        var der = try [UInt8](Data(contentsOf: URL(fileURLWithPath: CLIRunner.fixture("keys/rsa2048.pkcs1.der"))))
        der.removeLast(10)
        let file = dir.appendingPathComponent("truncated.der")
        try Data(der).write(to: file)
        let result = try CLIRunner.run(["inspect", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("keytool: error: \(file.path): "))
        #expect(result.stderr.contains("offset"))
        let random = try CLIRunner.run(["inspect", "-"], stdin: (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 5) })
        #expect(random.status == 1)
        #expect(random.stderr.hasPrefix("keytool: error: stdin: "))
    }

    @Test("a KDF cost above the cap is refused, naming the cap and the flag that raises it")
    func kdfCostCap() throws {
        let file = CLIRunner.fixture("keys/ec-p256.pkcs8-aes256-sha256.pem")
        let refused = try CLIRunner.run(["inspect", "--passphrase-file", Self.passphraseFile, "--max-kdf-iterations", "100", file])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("is 2048, above the cap of 100"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--max-kdf-iterations"))
        let scrypt = try CLIRunner.run(["inspect", "--passphrase-file", Self.passphraseFile, "--max-kdf-memory", "4",
                                        CLIRunner.fixture("keys/ec-p256.pkcs8-scrypt.der")])
        #expect(scrypt.status == 1)
        #expect(scrypt.stderr.contains("is 16 MiB, above the cap of 4 MiB"), "\(scrypt.stderr)")
        #expect(scrypt.stderr.contains("--max-kdf-memory"))
        let allowed = try CLIRunner.run(["inspect", "--passphrase-file", Self.passphraseFile, "--max-kdf-iterations", "2048", file])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        // bcrypt-pbkdf's rounds (ssh-keygen wrote 16) have their own cap and flag.
        let openssh = CLIRunner.fixture("keys/ec-p256.openssh-aes256-ctr")
        let rounds = try CLIRunner.run(["inspect", "--passphrase-file", Self.passphraseFile, "--max-kdf-rounds", "15", openssh])
        #expect(rounds.status == 1)
        #expect(rounds.stderr.contains("is 16, above the cap of 15"), "\(rounds.stderr)")
        #expect(rounds.stderr.contains("--max-kdf-rounds"))
        let roundsAllowed = try CLIRunner.run(["inspect", "--passphrase-file", Self.passphraseFile, "--max-kdf-rounds", "16", openssh])
        #expect(roundsAllowed.status == 0, "\(roundsAllowed.stderr)")
    }
}
