import CofferTestSupport
import Foundation
import Testing

/// keytool on the SSH files users have: encrypted OpenSSH and PuTTY keys fingerprinted without a
/// passphrase (as ssh-keygen -l and puttygen -l do), DSA keys, FIDO security keys and known_hosts
/// files, against what ssh-keygen, openssl and puttygen print.
@Suite("keytool on DSA, security keys, known_hosts and encrypted SSH keys")
struct RealWorldSSHCommandTests {
    static func path(_ subject: String, _ file: String) -> String {
        RealWorldFixtures.directory(subject).appendingPathComponent(file).path
    }

    static let encryptedOpenSSH = ["ec-p256.openssh-aes256-ctr", "ec-p384.openssh-aes128-cbc", "ed25519-ssh.openssh-aes128-cbc", "ec-p521.openssh-aes256-gcm"]

    @Test("fingerprint of an encrypted OpenSSH key asks nothing and prints ssh-keygen -l's line", arguments: encryptedOpenSSH)
    func encryptedOpenSSHFingerprint(file: String) throws {
        // ssh-keygen reads FILE.pub when it exists: a copy alone makes it read the private file.
        let dir = try TestScratch.directory("keytool-encrypted-fingerprint")
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("key")
        try FileManager.default.copyItem(atPath: CLIRunner.fixture("keys/\(file)"), toPath: copy.path)
        for hash in ["sha256", "md5"] {
            let theirs = try ToolProcess.run(tool: "ssh-keygen", ["-l", "-E", hash, "-f", copy.path], stdin: [])
            try #require(theirs.status == 0, "\(theirs.stderr)")
            let mine = try CLIRunner.run(["fingerprint", "--hash", hash, copy.path], stdin: [])
            #expect(mine.status == 0, "\(mine.stderr)")
            #expect(mine.stdout == theirs.text)
        }
    }

    @Test("fingerprint reads no KDF, so a round count above the cap does not stop it (as ssh-keygen -l)")
    func fingerprintIgnoresRounds() throws {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: CLIRunner.fixture("keys/ec-p256.openssh-aes256-ctr"))), as: UTF8.self)
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        var blob = [UInt8](try #require(Data(base64Encoded: body)))
        func length(at offset: Int) -> Int { blob[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        var offset = 15                      // "openssh-key-v1\0"
        offset += 4 + length(at: offset)     // cipher
        offset += 4 + length(at: offset)     // kdf
        offset += 4                          // kdf options' length
        offset += 4 + length(at: offset)     // salt
        blob.replaceSubrange(offset..<(offset + 4), with: [0x00, 0x0F, 0x42, 0x40])  // 1,000,000 rounds
        let base64 = Data(blob).base64EncodedString()
        let lines = stride(from: 0, to: base64.count, by: 70).map { start -> String in
            let from = base64.index(base64.startIndex, offsetBy: start)
            return String(base64[from..<(base64.index(from, offsetBy: 70, limitedBy: base64.endIndex) ?? base64.endIndex)])
        }
        let dir = try TestScratch.directory("keytool-rounds")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("costly").path
        try Data(("-----BEGIN OPENSSH PRIVATE KEY-----\n" + lines.joined(separator: "\n") + "\n-----END OPENSSH PRIVATE KEY-----\n").utf8)
            .write(to: URL(fileURLWithPath: path))
        let theirs = try ToolProcess.run(tool: "ssh-keygen", ["-l", "-f", path], stdin: [])
        try #require(theirs.status == 0, "\(theirs.stderr)")
        let mine = try CLIRunner.run(["fingerprint", path], stdin: [])
        #expect(mine.status == 0, "\(mine.stderr)")
        #expect(mine.stdout == theirs.text)
        // Decrypting it would start the work: that is still capped.
        let check = try CLIRunner.run(["check", "--passphrase-file", CLIRunner.fixture("keys/passphrase.txt"), path])
        #expect(check.status == 1)
        #expect(check.stderr.contains("--max-kdf-rounds"))
    }

    @Test("an unencrypted OpenSSH private key with an empty comment prints it as ssh-keygen -l does (nothing)",
          arguments: ["ed25519", "ecdsa"])
    func emptyComment(type: String) throws {
        let dir = try TestScratch.directory("keytool-empty-comment")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("key").path
        try ToolProcess.output(tool: "ssh-keygen", ["-q", "-t", type, "-N", "", "-C", "", "-f", path])
        try FileManager.default.removeItem(atPath: path + ".pub")
        let theirs = try ToolProcess.run(tool: "ssh-keygen", ["-l", "-f", path], stdin: [])
        try #require(theirs.status == 0, "\(theirs.stderr)")
        #expect(theirs.text.contains("  ("))
        let mine = try CLIRunner.run(["fingerprint", path])
        #expect(mine.stdout == theirs.text)
    }

    @Test("fingerprint of an encrypted PuTTY key asks nothing and agrees with puttygen -l", .needs("puttygen"),
          arguments: ["ec-p256.v3-argon2id.ppk", "ec-p384.v2-aes.ppk"])
    func encryptedPPKFingerprint(file: String) throws {
        let path = CLIRunner.fixture("keys/ppk/\(file)")
        let theirs = try ToolProcess.run(tool: "puttygen", ["-l", path], stdin: [])
        try #require(theirs.status == 0, "\(theirs.stderr)")
        let mine = try CLIRunner.run(["fingerprint", path], stdin: [])
        #expect(mine.status == 0, "\(mine.stderr)")
        // puttygen -l: `ecdsa-sha2-nistp256 256 SHA256:… comment`; keytool: `256 SHA256:… comment (ECDSA)`.
        let hash = try #require(theirs.text.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("SHA256:") })
        #expect(mine.stdout.split(separator: " ").dropFirst().first == hash)
    }

    @Test("inspect of an encrypted key without a passphrase shows the public part; with one, all of it",
          arguments: ["keys/ec-p256.openssh-aes256-ctr", "keys/ppk/ec-p256.v3-argon2id.ppk"])
    func inspectPublicPart(file: String) throws {
        let path = CLIRunner.fixture(file)
        let result = try CLIRunner.run(["inspect", "--json", path], stdin: [])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any])
        #expect(object["publicPartOnly"] as? Bool == true)
        #expect(object["private"] as? Bool == true)
        #expect(object["encrypted"] as? Bool == true)
        let full = try CLIRunner.run(["inspect", "--json", "--passphrase-file", CLIRunner.fixture("keys/passphrase.txt"), path])
        #expect(full.status == 0, "\(full.stderr)")
        let whole = try #require(try JSONSerialization.jsonObject(with: Data(full.stdoutBytes)) as? [String: Any])
        #expect(whole["publicPartOnly"] == nil)
        #expect(whole["fingerprintSHA256"] as? String == object["fingerprintSHA256"] as? String)
        #expect(whole["publicKey"] as? String == object["publicKey"] as? String)
    }

    @Test("DSA: fingerprint is ssh-keygen -l's, inspect names it, conversions are ssh-keygen's and openssl's")
    func dsa() throws {
        let facts = try JSONSerialization.jsonObject(with: Data(RealWorldFixtures.bytes("dsa", "facts.json"))) as? [[String: Any]]
        let fact = try #require(facts?.first { $0["name"] as? String == "dsa1024" })
        for (file, hash, key) in [("dsa1024.openssh-public", "sha256", "sshKeygenL"), ("dsa1024.openssh-public", "md5", "sshKeygenLMD5")] {
            let result = try CLIRunner.run(["fingerprint", "--hash", hash, Self.path("dsa", file)])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == (fact[key] as? String ?? "") + "\n")
        }
        let encrypted = try CLIRunner.run(["fingerprint", Self.path("dsa", "dsa1024.openssh-encrypted")], stdin: [])
        #expect(encrypted.stdout.hasPrefix((fact["sshKeygenL"] as? String ?? "").split(separator: " ").prefix(2).joined(separator: " ")))
        let inspect = try CLIRunner.run(["inspect", "--json", "--passphrase-file", Self.path("dsa", "passphrase.txt"), Self.path("dsa", "dsa1024.dsa-private-encrypted.pem")])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdoutBytes)) as? [String: Any])
        #expect(object["algorithm"] as? String == "dsa")
        #expect(object["bits"] as? Int == 1024)
        #expect(object["format"] as? String == "dsa-private-encrypted")
        #expect(object["spkiSHA256"] as? String == fact["spkiSHA256"] as? String)
        #expect(object["y"] as? String == (fact["y"] as? String).map { String($0.drop(while: { $0 == "0" })) })
        #expect(object["jwkThumbprint"] == nil)
        let line = try CLIRunner.run(["convert", "--to", "openssh-public", "--comment", "dsa1024@realworld", Self.path("dsa", "dsa1024.pkcs8.der")])
        #expect(line.stdout == (fact["publicLine"] as? String ?? "") + "\n")
        let spki = try CLIRunner.run(["convert", "--to", "spki", Self.path("dsa", "dsa1024.openssh")])
        #expect(spki.stdoutBytes == (try RealWorldFixtures.bytes("dsa", "dsa1024.spki.pem")))
        let match = try CLIRunner.run(["match", "--passphrase-file", Self.path("dsa", "passphrase.txt"), Self.path("dsa", "dsa1024.openssh-encrypted"),
                                       Self.path("dsa", "dsa1024.p12"), Self.path("dsa", "dsa1024.ppk"), Self.path("dsa", "dsa1024.spki.der")])
        #expect(match.status == 0, "\(match.stderr)")
        let check = try CLIRunner.run(["check", Self.path("dsa", "dsa1024.openssh")])
        #expect(check.status == 0)
        #expect(check.stdout.contains("DSA 1024-bit key is consistent"))
    }

    @Test("DSA: signing, private output and generation are refused as obsolete")
    func dsaReadOnly() throws {
        let sign = try CLIRunner.run(["sign", "--key", Self.path("dsa", "dsa1024.openssh"), Self.path("dsa", "facts.json")])
        #expect(sign.status == 1)
        #expect(sign.stderr.contains("read-only"))
        let convert = try CLIRunner.run(["convert", "--to", "pkcs8", Self.path("dsa", "dsa1024.openssh")])
        #expect(convert.status == 1)
        #expect(convert.stderr.contains("DSA keys are read-only"))
        let generate = try CLIRunner.run(["generate", "--type", "dsa", "-o", TestScratch.path("never-written")])
        #expect(generate.status == 64)
        #expect(generate.stderr.contains("obsolete"))
    }

    @Test("security keys: fingerprint is ssh-keygen -l's for the line, the file and the encrypted file; inspect shows application and flags",
          arguments: ["sk-ed25519", "sk-ed25519-app", "sk-ecdsa", "sk-ecdsa-noup"])
    func securityKeys(name: String) throws {
        let facts = try JSONSerialization.jsonObject(with: Data(RealWorldFixtures.bytes("sk-keys", "facts.json"))) as? [[String: Any]]
        let fact = try #require(facts?.first { $0["name"] as? String == name })
        for (file, key) in [("\(name).pub", "sshKeygenL"), (name, "sshKeygenLPrivate"), ("\(name)-encrypted", "sshKeygenLEncrypted")] {
            let result = try CLIRunner.run(["fingerprint", Self.path("sk-keys", file)], stdin: [])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == (fact[key] as? String ?? "") + "\n", "\(file)")
        }
        let md5 = try CLIRunner.run(["fingerprint", "--hash", "md5", Self.path("sk-keys", "\(name).pub")])
        #expect(md5.stdout == (fact["sshKeygenLMD5"] as? String ?? "") + "\n")
        let inspect = try CLIRunner.run(["inspect", "--json", Self.path("sk-keys", name)])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdoutBytes)) as? [String: Any])
        #expect(object["application"] as? String == fact["application"] as? String)
        #expect(object["flags"] as? String == ((fact["flags"] as? Int) == 0 ? "none" : object["flags"] as? String))
        #expect(object["private"] as? Bool == true)
        #expect(object["spkiSHA256"] == nil)
        let line = try CLIRunner.run(["convert", "--to", "openssh-public", "--comment", "x", Self.path("sk-keys", name)])
        #expect(line.stdout.split(separator: " ").prefix(2) == (fact["sshKeygenY"] as? String ?? "").split(separator: " ").prefix(2))
        let match = try CLIRunner.run(["match", Self.path("sk-keys", name), Self.path("sk-keys", "\(name).pub"), Self.path("sk-keys", "\(name).rfc4716")])
        #expect(match.status == 0, "\(match.stderr)")
        let sign = try CLIRunner.run(["sign", "--key", Self.path("sk-keys", name), Self.path("sk-keys", "facts.json")])
        #expect(sign.status == 1)
        #expect(sign.stderr.contains("authenticator"))
    }

    @Test("the flags of a resident, verify-required key are named")
    func securityKeyFlags() throws {
        let inspect = try CLIRunner.run(["inspect", Self.path("sk-keys", "sk-ed25519-app")])
        #expect(inspect.stdout.contains("user-presence-required,user-verification-required,resident"))
        #expect(inspect.stdout.contains("ssh:coffer-test"))
    }

    @Test("known_hosts: fingerprint prints ssh-keygen -l's lines, marked lines too, and names the unreadable lines",
          arguments: ["known_hosts", "known_hosts.hashed"])
    func knownHosts(file: String) throws {
        let facts = try JSONSerialization.jsonObject(with: Data(RealWorldFixtures.bytes("known-hosts", "facts.json"))) as? [String: Any]
        let expected = try #require((facts?["fingerprints"] as? [String: [String]])?[file])
        let result = try CLIRunner.run(["fingerprint", Self.path("known-hosts", file)])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { !$0.contains(" @") } == expected)
        #expect(lines.filter { $0.contains(" @revoked ") }.count == 1)
        if file == "known_hosts" {
            #expect(lines.contains { $0.contains(" @cert-authority *.example.org (RSA)") })
            // Every readable line printed, each unreadable one named, and the exit status 1.
            #expect(result.status == 1)
            #expect(result.stderr.contains("line 10:"))
            #expect(result.stderr.contains("line 11:"))
            let strict = try CLIRunner.run(["fingerprint", "--strict", Self.path("known-hosts", file)])
            #expect(strict.status == 1)
            #expect(strict.stdout == result.stdout)
        } else {
            #expect(result.status == 0, "\(result.stderr)")
        }
    }

    @Test("known_hosts: inspect --json gives each entry's hosts, marker and line")
    func knownHostsInspect() throws {
        let result = try CLIRunner.run(["inspect", "--json", Self.path("known-hosts", "known_hosts.hashed")])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 6)
        #expect(objects.allSatisfy { ($0["hosts"] as? String)?.hasPrefix("|1|") == true })
        #expect(objects.compactMap { $0["marker"] as? String } == ["@revoked"])
        #expect(objects.compactMap { $0["line"] as? Int } == [2, 3, 4, 5, 6, 7])
        #expect(objects.allSatisfy { $0["format"] as? String == "known-hosts" })
    }

    @Test("certificates of DSA and security keys: ssh-keygen -s signs them now, fingerprint is ssh-keygen -l's, the CA signature verifies",
          arguments: ["dsa", "sk-ed25519", "sk-ecdsa"])
    func certificatesOfReadOnlyKeys(kind: String) throws {
        let directory = try TestScratch.directory("cert-\(kind)")
        let ca = directory.appendingPathComponent("ca").path
        try ToolProcess.output(tool: "ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "ca", "-f", ca])
        let publicKey = directory.appendingPathComponent("key.pub").path
        if kind == "dsa" {
            try ToolProcess.output(tool: "ssh-keygen", ["-q", "-t", "dsa", "-N", "", "-C", "dsa", "-f", directory.appendingPathComponent("key").path])
        } else {
            try Data(RealWorldFixtures.bytes("sk-keys", "\(kind).pub")).write(to: URL(fileURLWithPath: publicKey))
        }
        try ToolProcess.output(tool: "ssh-keygen", ["-q", "-s", ca, "-I", "id-\(kind)", "-n", "alice", "-z", "7", publicKey])
        let certificate = directory.appendingPathComponent("key-cert.pub").path
        let expected = String(decoding: try ToolProcess.output(tool: "ssh-keygen", ["-l", "-f", certificate]), as: UTF8.self)
        let fingerprint = try CLIRunner.run(["fingerprint", certificate])
        #expect(fingerprint.status == 0, "\(fingerprint.stderr)")
        #expect(fingerprint.stdout == expected)
        let inspect = try CLIRunner.run(["inspect", "--ca", ca + ".pub", certificate])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.contains("verifies"))
        #expect(inspect.stdout.contains("id-\(kind)"))
    }
}
