import CofferTestSupport
import Foundation
import Testing

/// `keytool inspect`, `fingerprint` and `convert` on PuTTY key files, against puttygen.
@Suite("keytool on PPK files")
struct PPKCommandTests {
    static var facts: [PPKFact] {
        get throws { try PPKFact.all }
    }
    static let passphraseFile = CLIRunner.fixture("keys/passphrase.txt")

    static func directory() throws -> URL {
        try TestScratch.directory("keytool-ppk")
    }

    /// `ssh-keygen -l`'s size, which keytool prints: puttygen counts Ed25519 as 255 bits and Ed448
    /// as 448 where ssh-keygen says 256 and 456.
    static func sshKeygenBits(_ fact: PPKFact) -> Int {
        switch fact.keyType {
        case "ssh-ed25519": 256
        case "ssh-ed448": 456
        default: fact.bits
        }
    }

    @Test("inspect --json reports what puttygen reported", arguments: try facts)
    func inspect(_ fact: PPKFact) throws {
        let result = try CLIRunner.run(["inspect", "--json", "--passphrase-file", Self.passphraseFile, fact.path])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any])
        #expect(object["format"] as? String == "ppk")
        #expect(object["encoding"] as? String == "text")
        #expect(object["algorithm"] as? String == fact.algorithm)
        #expect(object["private"] as? Bool == true)
        #expect(object["encrypted"] as? Bool == fact.encrypted)
        #expect(object["cipher"] as? String == fact.cipher)
        #expect(object["kdf"] as? String == fact.kdf)
        #expect(object["comment"] as? String == fact.comment)
        #expect(object["bits"] as? Int == Self.sshKeygenBits(fact))
        #expect(object["fingerprintSHA256"] as? String == fact.fingerprintSHA256)
        #expect(object["fingerprintMD5"] as? String == fact.fingerprintMD5)
    }

    @Test("fingerprint prints puttygen's fingerprint and the comment", arguments: try facts.filter { $0.version == 3 && !$0.encrypted })
    func fingerprint(_ fact: PPKFact) throws {
        let result = try CLIRunner.run(["fingerprint", fact.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(Self.sshKeygenBits(fact)) \(fact.fingerprintSHA256) \(fact.comment) ("))
    }

    @Test("convert to openssh-public gives puttygen's public key line", arguments: try facts)
    func toOpenSSHPublic(_ fact: PPKFact) throws {
        let result = try CLIRunner.run(["convert", "--passphrase-file", Self.passphraseFile, "--to", "openssh-public", fact.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == fact.publicOpenSSH + "\n")
    }

    @Test("convert --to ppk from the OpenSSH key reproduces puttygen's v3 and v2 files", arguments: try facts.filter { $0.version == 3 && !$0.encrypted })
    func toPPKByteForByte(_ fact: PPKFact) throws {
        let source = PPKFact.directory.appendingPathComponent(fact.privateOpenSSH).path
        for (extra, suffix) in [([String](), "v3"), (["--ppk-version", "2"], "v2")] {
            let result = try CLIRunner.run(["convert", source, "--to", "ppk"] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            let reference = Array(try Data(contentsOf: PPKFact.directory.appendingPathComponent("\(fact.source).\(suffix).ppk")))
            #expect(result.stdoutBytes == reference, "\(suffix)")
        }
    }

    @Test("convert --to ppk --encrypt writes a 0600 file that puttygen opens with the passphrase", .needs("puttygen"), arguments: ["3", "2"])
    func encryptedForPuttygen(_ version: String) throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("key.ppk").path
        let fact = try #require(try Self.facts.first { $0.file == "ec-p384.v3.ppk" })
        let result = try CLIRunner.run(["convert", fact.path, "--to", "ppk", "--ppk-version", version, "--encrypt", "aes256-cbc",
                                        "--new-passphrase-file", Self.passphraseFile, "--comment", "for putty", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.hasPrefix("PuTTY-User-Key-File-\(version): ecdsa-sha2-nistp384\nEncryption: aes256-cbc\nComment: for putty\n"))
        if version == "3" { #expect(text.contains("Key-Derivation: Argon2id\nArgon2-Memory: 8192\nArgon2-Passes: 16\nArgon2-Parallelism: 1\n")) }
        let loaded = try ToolProcess.run(tool: "puttygen", [out, "-O", "public-openssh", "--old-passphrase", Self.passphraseFile])
        #expect(loaded.status == 0, "\(loaded.stderr)")
        let expected = fact.publicOpenSSH.split(separator: " ").prefix(2).joined(separator: " ") + " for putty\n"
        #expect(loaded.text == expected)
        let back = try CLIRunner.run(["inspect", "--json", "--passphrase-file", Self.passphraseFile, out])
        #expect(back.stdout.contains("\"fingerprintSHA256\":\"\(fact.fingerprintSHA256)\""))
    }

    @Test("Argon2 costs above --max-kdf-memory/--max-kdf-passes are refused, naming the flag")
    func costCaps() throws {
        let path = PPKFact.directory.appendingPathComponent("rsa2048.v3-argon2id.ppk").path
        let refused = try CLIRunner.run(["inspect", "--passphrase-file", Self.passphraseFile, "--max-kdf-memory", "4", path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("--max-kdf-memory"))
        let passes = try CLIRunner.run(["inspect", "--passphrase-file", Self.passphraseFile, "--max-kdf-passes", "3", path])
        #expect(passes.status == 1)
        #expect(passes.stderr.contains("--max-kdf-passes"))
        let allowed = try CLIRunner.run(["inspect", "--passphrase-file", Self.passphraseFile, "--max-kdf-memory", "8", "--max-kdf-passes", "4", path])
        #expect(allowed.status == 0, "\(allowed.stderr)")
    }

    @Test("Argon2 lanes above --max-kdf-parallelism are refused, naming the flag")
    func parallelismCap() throws {
        let path = PPKFact.directory.appendingPathComponent("rsa2048.v3-argon2id.ppk").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("Argon2-Parallelism: 1\n"))
        let hostile = try Self.directory().appendingPathComponent("lanes.ppk").path
        try text.replacingOccurrences(of: "Argon2-Parallelism: 1\n", with: "Argon2-Parallelism: 100000\n")
            .write(toFile: hostile, atomically: true, encoding: .utf8)
        let refused = try CLIRunner.run(["inspect", "--passphrase-file", Self.passphraseFile, hostile])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Argon2 parallelism"))
        #expect(refused.stderr.contains("--max-kdf-parallelism"))
        let capped = try CLIRunner.run(["inspect", "--passphrase-file", Self.passphraseFile, "--max-kdf-parallelism", "1", path])
        #expect(capped.status == 0, "\(capped.stderr)")
        let invalid = try CLIRunner.run(["inspect", "--passphrase-file", Self.passphraseFile, "--max-kdf-parallelism", "0", path])
        #expect(invalid.status != 0)
        #expect(invalid.stderr.contains("--max-kdf-parallelism must be at least 1"))
    }

    @Test("an encrypted PPK without a passphrase, and a wrong one, fail clearly")
    func passphraseErrors() throws {
        let path = PPKFact.directory.appendingPathComponent("ed448.v2-aes.ppk").path
        // check needs the private key (inspect would show the public part).
        let missing = try CLIRunner.run(["check", path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("--passphrase-file"))
        let wrong = try CLIRunner.run(["inspect", "--passphrase-env", "PPK_WRONG", path], environment: ["PPK_WRONG": "nope"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("wrong passphrase, or the file is damaged"))
    }

    @Test func usageErrors() throws {
        let source = CLIRunner.fixture("keys/ec-p256.pkcs8.pem")
        #expect(try CLIRunner.run(["convert", source, "--to", "pkcs8", "--ppk-version", "2"]).status == 64)
        #expect(try CLIRunner.run(["convert", source, "--to", "ppk", "--ppk-version", "4"]).status == 64)
        #expect(try CLIRunner.run(["convert", source, "--to", "ppk", "--der"]).status == 64)
        let cipher = try CLIRunner.run(["convert", source, "--to", "ppk", "--encrypt", "aes-128-cbc", "--new-passphrase-file", Self.passphraseFile])
        #expect(cipher.status == 1)
        #expect(cipher.stderr.contains("aes256-cbc"))
        let x25519 = try CLIRunner.run(["convert", CLIRunner.fixture("keys/x25519.pkcs8.pem"), "--to", "ppk"])
        #expect(x25519.status == 1)
        #expect(x25519.stderr.contains("Ed448"))
    }
}
