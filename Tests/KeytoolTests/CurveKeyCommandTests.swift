import CofferTestSupport
import Foundation
import Testing

/// `keytool` on EC, Ed25519, Ed448, X25519 and X448 keys, against openssl and ssh-keygen.
@Suite("keytool on EC and octet keys")
struct CurveKeyCommandTests {
    static var facts: [KeyFact] {
        get throws { try KeyFact.all.filter { ($0.algorithm ?? "rsa") != "rsa" && $0.algorithm != "dsa" } }
    }
    static let passphraseFile = CLIRunner.fixture("keys/passphrase.txt")

    static func directory() throws -> URL {
        try TestScratch.directory("keytool-curve")
    }

    static func tool(_ name: String, _ arguments: [String], stdin: [UInt8]? = nil) throws -> ToolOutput {
        try ToolProcess.run(tool: name, arguments, stdin: stdin)
    }

    @Test("inspect --json reports what openssl and ssh-keygen reported", arguments: try facts)
    func inspect(_ fact: KeyFact) throws {
        let result = try CLIRunner.run(["inspect", "--json", "--passphrase-file", Self.passphraseFile, CLIRunner.fixture("keys/\(fact.file)")])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any])
        #expect(object["algorithm"] as? String == fact.algorithm)
        #expect(object["curve"] as? String == fact.curve)
        #expect(object["format"] as? String == fact.format)
        #expect(object["encoding"] as? String == fact.encoding)
        #expect(object["private"] as? Bool == fact.private)
        #expect(object["encrypted"] as? Bool == fact.encrypted)
        #expect(object["cipher"] as? String == fact.cipher)
        #expect(object["publicKey"] as? String == fact.publicKey)
        if let bits = fact.bits { #expect(object["bits"] as? Int == bits) }
        if let sha256 = fact.fingerprintSHA256 {
            #expect(object["fingerprintSHA256"] as? String == sha256)
            #expect(object["fingerprintMD5"] as? String == fact.fingerprintMD5)
        }
        #expect(object["modulus"] == nil)
    }

    @Test("fingerprint prints exactly what ssh-keygen -l prints",
          arguments: try facts.filter { $0.format == "openssh-public" })
    func fingerprint(_ fact: KeyFact) throws {
        let path = CLIRunner.fixture("keys/\(fact.file)")
        for hash in ["sha256", "md5"] {
            let mine = try CLIRunner.run(["fingerprint", "--hash", hash, path])
            let theirs = try Self.tool("ssh-keygen", ["-l", "-E", hash, "-f", path])
            #expect(mine.status == 0, "\(mine.stderr)")
            #expect(mine.stdout == theirs.text)
        }
    }

    @Test("convert between containers reproduces openssl's and ssh-keygen's files", arguments: ["ec-p256", "ec-p384", "ec-p521"])
    func convertEC(_ name: String) throws {
        let source = CLIRunner.fixture("keys/\(name).pkcs8.pem")
        for (format, file, der) in [("sec1", "sec1.pem", false), ("sec1", "sec1.der", true), ("pkcs8", "pkcs8.der", true),
                                    ("spki", "spki.pem", false), ("openssh-public", "openssh.pub", false)] {
            var arguments = ["convert", source, "--to", format]
            if der { arguments.append("--der") }
            if format == "openssh-public" { arguments += ["--comment", "coffer-\(name)"] }
            let result = try CLIRunner.run(arguments)
            #expect(result.status == 0, "\(result.stderr)")
            let expected = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.fixture("keys/\(name).\(file)")))
            #expect(result.stdoutBytes == Array(expected), "\(format) \(der)")
        }
    }

    @Test("a key a container cannot hold is refused, naming both")
    func cannotHold() throws {
        let x25519 = CLIRunner.fixture("keys/x25519.pkcs8.pem")
        let openssh = try CLIRunner.run(["convert", x25519, "--to", "openssh-public"])
        #expect(openssh.status == 1)
        #expect(openssh.stderr.contains("X25519") && openssh.stderr.contains("openssh-public"), "\(openssh.stderr)")
        let sec1 = try CLIRunner.run(["convert", CLIRunner.fixture("keys/ed25519.pkcs8.pem"), "--to", "sec1"])
        #expect(sec1.status == 1)
        #expect(sec1.stderr.contains("Ed25519") && sec1.stderr.contains("sec1"), "\(sec1.stderr)")
        let pkcs1 = try CLIRunner.run(["convert", CLIRunner.fixture("keys/ec-p256.sec1.pem"), "--to", "pkcs1"])
        #expect(pkcs1.status == 1)
        #expect(pkcs1.stderr.contains("EC") && pkcs1.stderr.contains("pkcs1"), "\(pkcs1.stderr)")
    }

    @Test("generate makes keys openssl accepts",
          arguments: [["--type", "ec"], ["--type", "ec", "--curve", "P-384", "--to", "sec1"], ["--type", "ec", "--curve", "P-521"],
                      ["--type", "ed25519"], ["--type", "ed448"], ["--type", "x25519"], ["--type", "x448"]])
    func generate(_ options: [String]) throws {
        let out = try Self.directory().appendingPathComponent("key.pem").path
        let result = try CLIRunner.run(["generate"] + options + ["--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        let check = try Self.tool("openssl", ["pkey", "-in", out, "-check", "-noout"])
        #expect(check.status == 0, "\(check.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("generate --type ed25519 --to openssh writes a key ssh-keygen reads")
    func generateOpenSSH() throws {
        let out = try Self.directory().appendingPathComponent("id_ed25519").path
        let result = try CLIRunner.run(["generate", "--type", "ed25519", "--to", "openssh", "--comment", "made by keytool", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try Self.tool("ssh-keygen", ["-y", "-f", out])
        #expect(line.text.hasPrefix("ssh-ed25519 "))
        #expect(line.text.hasSuffix(" made by keytool\n"))
        let misuse = try CLIRunner.run(["generate", "--type", "ed25519", "--bits", "4096", "--out", out + "2"])
        #expect(misuse.status == 64)
    }

    @Test("sign and verify agree with openssl: ECDSA (DER and raw) and EdDSA")
    func signVerify() throws {
        let dir = try Self.directory()
        let message = dir.appendingPathComponent("message").path
        try Data("keytool signs this".utf8).write(to: URL(fileURLWithPath: message))
        for name in ["ec-p256", "ec-p384", "ec-p521", "ed25519", "ed448"] {
            let key = CLIRunner.fixture("keys/\(name).pkcs8.pem")
            let publicKey = CLIRunner.fixture("keys/\(name).spki.pem")
            let signature = dir.appendingPathComponent("\(name).sig").path
            let signed = try CLIRunner.run(["sign", "--key", key, "--out", signature, message])
            #expect(signed.status == 0, "\(signed.stderr)")
            let opensslVerify: ToolOutput
            let opensslSignature: ToolOutput
            if name.hasPrefix("ec") {
                let digest = ["ec-p256": "-sha256", "ec-p384": "-sha384", "ec-p521": "-sha512"][name]!
                opensslVerify = try Self.tool("openssl", ["dgst", digest, "-verify", publicKey, "-signature", signature, message])
                opensslSignature = try Self.tool("openssl", ["dgst", digest, "-sign", key, message])
            } else {
                opensslVerify = try Self.tool("openssl", ["pkeyutl", "-verify", "-pubin", "-inkey", publicKey, "-rawin", "-in", message, "-sigfile", signature])
                opensslSignature = try Self.tool("openssl", ["pkeyutl", "-sign", "-inkey", key, "-rawin", "-in", message])
            }
            #expect(opensslVerify.status == 0, "\(name): \(opensslVerify.stderr)")
            let theirs = dir.appendingPathComponent("\(name).theirs").path
            try Data(opensslSignature.stdout).write(to: URL(fileURLWithPath: theirs))
            let verified = try CLIRunner.run(["verify", "--key", publicKey, "--signature", theirs, message])
            #expect(verified.status == 0, "\(name): \(verified.stderr)")
            let tampered = dir.appendingPathComponent("tampered").path
            try Data("keytool signs that".utf8).write(to: URL(fileURLWithPath: tampered))
            let rejected = try CLIRunner.run(["verify", "--key", publicKey, "--signature", theirs, tampered])
            #expect(rejected.status == 1)
            #expect(rejected.stderr.contains("signature does not verify"))
        }
        // JWS/WebAuthn's r ‖ s form.
        let raw = dir.appendingPathComponent("raw.sig").path
        let key = CLIRunner.fixture("keys/ec-p256.pkcs8.pem")
        #expect(try CLIRunner.run(["sign", "--key", key, "--signature-format", "raw", "--out", raw, message]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: raw)).count == 64)
        let verifiedRaw = try CLIRunner.run(["verify", "--key", CLIRunner.fixture("keys/ec-p256.spki.pem"), "--signature-format", "raw", "--signature", raw, message])
        #expect(verifiedRaw.status == 0, "\(verifiedRaw.stderr)")
        // Options that do not apply are refused.
        let padding = try CLIRunner.run(["sign", "--key", CLIRunner.fixture("keys/ed25519.pkcs8.pem"), "--hash", "sha256", message])
        #expect(padding.status == 1)
        #expect(padding.stderr.contains("pure EdDSA"))
    }

    @Test("derive prints the secret openssl pkeyutl -derive prints", arguments: ["x25519", "x448", "ec-p256"])
    func derive(_ name: String) throws {
        let dir = try Self.directory()
        let algorithm = name.hasPrefix("ec") ? ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"] : ["-algorithm", name.uppercased()]
        let peer = dir.appendingPathComponent("peer.pem").path
        #expect(try Self.tool("openssl", ["genpkey"] + algorithm + ["-out", peer]).status == 0)
        let peerPublic = dir.appendingPathComponent("peer.pub").path
        #expect(try Self.tool("openssl", ["pkey", "-in", peer, "-pubout", "-out", peerPublic]).status == 0)
        let key = CLIRunner.fixture("keys/\(name).pkcs8.pem")
        let mine = try CLIRunner.run(["derive", "--key", key, "--peer", peerPublic])
        #expect(mine.status == 0, "\(mine.stderr)")
        let theirs = try Self.tool("openssl", ["pkeyutl", "-derive", "-inkey", key, "-peerkey", peerPublic])
        #expect(mine.stdoutBytes == theirs.stdout)
        #expect(!mine.stdoutBytes.isEmpty)
        let signingKey = try CLIRunner.run(["derive", "--key", CLIRunner.fixture("keys/ed25519.pkcs8.pem"), "--peer", peerPublic])
        #expect(signingKey.status == 1)
    }

    @Test("RSA-only commands name the algorithm they were given", arguments: ["encrypt", "decrypt"])
    func rsaOnly(_ command: String) throws {
        let dir = try Self.directory()
        let input = dir.appendingPathComponent("in").path
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: input))
        let result = try CLIRunner.run([command, "--key", CLIRunner.fixture("keys/ec-p384.pkcs8.pem"), input, dir.appendingPathComponent("out").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("needs an RSA key") && result.stderr.contains("EC (P-384)"), "\(result.stderr)")
    }

    @Test("check verifies EC, EdDSA and X keys", arguments: ["ec-p521.sec1.pem", "ed25519-ssh.openssh", "ed448.pkcs8.pem", "x448.pkcs8.der"])
    func check(_ file: String) throws {
        let result = try CLIRunner.run(["check", CLIRunner.fixture("keys/\(file)")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("is consistent"))
    }

    @Test("authorized_keys lines of every SSH key type keep their options through inspect and convert")
    func authorizedKeys() throws {
        let ed = try String(contentsOfFile: CLIRunner.fixture("keys/ed25519-ssh.openssh.pub"), encoding: .utf8)
        let ec = try String(contentsOfFile: CLIRunner.fixture("keys/ec-p384.openssh.pub"), encoding: .utf8)
        let options = #"from="10.0.0.1,10.0.0.2",command="echo \"hi there\"",no-pty"#
        let text = "# keys\n\(options) \(ed)\n\(ec)"
        let file = try Self.directory().appendingPathComponent("authorized_keys")
        try Data(text.utf8).write(to: file)
        let inspected = try CLIRunner.run(["inspect", "--json", file.path])
        #expect(inspected.status == 0, "\(inspected.stderr)")
        let objects = inspected.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(objects.map { $0["algorithm"] as? String } == ["ed25519", "ec"])
        #expect(objects.first?["options"] as? String == options)
        #expect(objects.last?["options"] == nil)
        let single = try Self.directory().appendingPathComponent("one")
        try Data("\(options) \(ed)".utf8).write(to: single)
        let converted = try CLIRunner.run(["convert", single.path, "--to", "openssh-public"])
        #expect(converted.stdout == "\(options) \(ed)")
    }
}
