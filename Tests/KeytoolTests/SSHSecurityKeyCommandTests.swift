import CofferTestSupport
import Foundation
import Testing

/// keytool on what OpenSSH users meet beyond plain keys: FIDO security-key SSHSIG signatures
/// (OpenSSH's own test data, tools/openssh-sshsig-vectors), `keytool inspect` of `.sig` files,
/// Bubble Babble fingerprints, damaged and malformed certificates, certificate times in the local
/// zone and key types nobody knows (tools/realworld/ssh-display.sh) — against what ssh-keygen
/// printed for the same files.
@Suite("keytool on security-key signatures, .sig files and ssh-keygen's displays")
struct SSHSecurityKeyCommandTests {
    static func path(_ subject: String, _ file: String) -> String {
        RealWorldFixtures.directory(subject).appendingPathComponent(file).path
    }

    // MARK: Security-key signatures

    typealias Case = SecurityKeySignatureFacts.Case

    static var securityKeyCases: [Case] {
        get throws { try SecurityKeySignatureFacts.securityKeyCases() }
    }

    static func sk(_ file: String) -> String { path("sshsig-sk", file) }

    @Test("verify --key decides as ssh-keygen -Y check-novalidate, with its Good line and the flags and counter",
          arguments: try securityKeyCases)
    func verifyWithKey(_ fact: Case) throws {
        let result = try CLIRunner.run(["verify", "--key", Self.sk(fact.key), "--namespace", fact.namespace,
                                        "--signature", Self.sk(fact.signature), Self.sk(fact.data)])
        if fact.checkNovalidate.status == 0 {
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == fact.checkNovalidate.stdout)
            let flags = try #require(fact.flags)
            let present = flags & 1 != 0 ? "yes" : "no"
            let verified = flags & 4 != 0 ? "yes" : "no"
            #expect(lines.dropFirst().first?.hasPrefix("Security key: flags 0x\(String(format: "%02x", flags)) (user presence \(present), user verification \(verified)), counter \(fact.counter ?? -1)") == true,
                    "\(result.stdout)")
        } else {
            #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
            #expect(!result.stdout.contains("Good"))
            #expect(result.stderr.contains(fact.signature) || result.stderr.contains(fact.data))
        }
    }

    @Test("verify --allowed-signers decides as ssh-keygen -Y verify", arguments: try securityKeyCases)
    func verifyAllowedSigners(_ fact: Case) throws {
        let identity = fact.key.replacingOccurrences(of: ".pub", with: "@example.com")
        let result = try CLIRunner.run(["verify", "--allowed-signers", Self.sk("allowed_signers"), "--identity", identity,
                                        "--namespace", fact.namespace, "--signature", Self.sk(fact.signature), Self.sk(fact.data)])
        #expect((result.status == 0) == (fact.verify.status == 0), "\(result.stdout) \(result.stderr)")
        if fact.verify.status == 0 {
            #expect(result.stdout.split(separator: "\n").first.map(String.init) == fact.verify.stdout)
        }
    }

    @Test("inspect of a .sig shows namespace, hash, signer fingerprint, algorithm, flags and counter",
          arguments: try securityKeyCases.filter { !$0.name.contains("-") })
    func inspectSignature(_ fact: Case) throws {
        let text = try CLIRunner.run(["inspect", Self.sk(fact.signature)])
        #expect(text.status == 0, "\(text.stderr)")
        // ssh-keygen: Good "unittest" signature with ECDSA-SK key SHA256:…
        let signer = try #require(fact.checkNovalidate.stdout.components(separatedBy: " with ").last)
        #expect(text.stdout.contains("  namespace:        \(fact.namespace)\n"))
        #expect(text.stdout.contains(" \(signer)\n"), "\(text.stdout)")
        #expect(text.stdout.contains("  signature:        \(fact.algorithm ?? "")\n"))
        #expect(text.stdout.contains("counter \(fact.counter ?? -1)"))
        let json = try CLIRunner.run(["inspect", "--json", Self.sk(fact.signature)])
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdoutBytes)) as? [String: Any])
        #expect(object["format"] as? String == "sshsig")
        #expect(object["namespace"] as? String == fact.namespace)
        #expect(object["signatureAlgorithm"] as? String == fact.algorithm)
        let signerObject = try #require(object["signer"] as? [String: Any])
        #expect(signerObject["fingerprintSHA256"] as? String == signer.components(separatedBy: " ").last)
        let securityKey = try #require(object["securityKey"] as? [String: Any])
        #expect(securityKey["flags"] as? Int == fact.flags)
        #expect(securityKey["counter"] as? Int == fact.counter)
        #expect(securityKey["userPresent"] as? Bool == ((fact.flags ?? 0) & 1 != 0))
    }

    @Test("inspect of ssh-keygen's own .sig files shows their hash algorithm and signer")
    func inspectPlainSignature() throws {
        let result = try CLIRunner.run(["inspect", Self.path("sshsig", "ed25519-sha256-git.sig")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  namespace:        git\n"))
        #expect(result.stdout.contains("  hash:             sha256\n"))
        #expect(!result.stdout.contains("security key:"))
        // tools/realworld/sshsig.sh: ssh-keygen -Y verify printed this key for the signature.
        let facts = try JSONSerialization.jsonObject(with: Data(contentsOf: RealWorldFixtures.directory("sshsig").appendingPathComponent("facts.json"))) as? [String: Any]
        let verify = try #require(facts?["verify"] as? [[String: Any]])
        let good = try #require(verify.first { $0["signature"] as? String == "ed25519-sha256-git.sig" && $0["status"] as? Int == 0 }?["stdout"] as? String)
        let signer = try #require(good.components(separatedBy: " with ").last)
        #expect(result.stdout.contains(" \(signer)\n"))
    }

    @Test("inspect of a damaged .sig names the file and the offset")
    func inspectDamagedSignature() throws {
        let dir = try TestScratch.directory("keytool-inspect-sig")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("cut.sig")
        let text = try String(contentsOfFile: Self.sk("ed25519_sk.sig"), encoding: .utf8)
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let bytes = try #require(Data(base64Encoded: body))
        let cut = bytes.dropLast(3).base64EncodedString()
        try ("-----BEGIN SSH SIGNATURE-----\n" + cut + "\n-----END SSH SIGNATURE-----\n").write(to: file, atomically: true, encoding: .utf8)
        let result = try CLIRunner.run(["inspect", file.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains(file.path))
        #expect(result.stderr.contains("offset"))
    }

    // MARK: ssh-keygen's displays

    typealias Run = SSHDisplayFacts.Run

    static var displayFacts: SSHDisplayFacts {
        get throws { try SSHDisplayFacts.load() }
    }
    static func display(_ file: String) -> String { path("ssh-display", file) }

    @Test("fingerprint -B and --hash bubblebabble print ssh-keygen -B's lines", arguments: try displayFacts.bubblebabble.filter { $0.status == 0 })
    func bubbleBabble(_ fact: Run) throws {
        for arguments in [["-B"], ["--hash", "bubblebabble"]] {
            let result = try CLIRunner.run(["fingerprint"] + arguments + [Self.display(fact.file)])
            // multi.pub holds a damaged certificate: ssh-keygen skips it, keytool says so and exits 1.
            #expect(result.status == (fact.file == "multi.pub" ? 1 : 0), "\(result.stderr)")
            #expect(result.stdout == fact.stdout + "\n")
        }
    }

    @Test("fingerprint prints ssh-keygen -l's lines for the keys and certificates it accepts", arguments: try displayFacts.fingerprint.filter { $0.status == 0 && $0.file != "multi.pub" })
    func fingerprint(_ fact: Run) throws {
        let result = try CLIRunner.run(["fingerprint", Self.display(fact.file)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == fact.stdout + "\n")
    }

    @Test("fingerprint refuses a certificate whose CA signature ssh-keygen refuses; the other entries still print, exit 1")
    func damagedCertificate() throws {
        let facts = try Self.displayFacts
        // A flipped signature byte, and a security-key CA's signature whose flags byte was changed.
        for file in ["damaged-cert.pub", "sk-ca-flags-cert.pub"] {
            let alone = try #require(facts.fingerprint.first { $0.file == file })
            #expect(alone.status != 0)
            for arguments in [[String](), ["-B"]] {
                let result = try CLIRunner.run(["fingerprint"] + arguments + [Self.display(file)])
                #expect(result.status == 1)
                #expect(result.stdout.isEmpty)
                #expect(result.stderr.contains("\(file): entry 1: the OpenSSH certificate's CA signature does not verify"), "\(result.stderr)")
            }
        }
        // ssh-keygen -l prints the two good entries of the file (and skips the damaged one).
        let multi = try #require(facts.fingerprint.first { $0.file == "multi.pub" })
        let result = try CLIRunner.run(["fingerprint", Self.display("multi.pub")])
        #expect(result.status == 1)
        #expect(result.stdout == multi.stdout + "\n")
        #expect(result.stderr.contains("multi.pub: entry 2: the OpenSSH certificate's CA signature does not verify"))
    }

    @Test("inspect shows a damaged certificate with the signature failure as a warning")
    func inspectDamagedCertificate() throws {
        let result = try CLIRunner.run(["inspect", Self.display("damaged-cert.pub")], environment: ["TZ": "UTC"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  CA signature:     does not verify"))
        #expect(result.stdout.contains("  warning:          the CA signature (ssh-ed25519) does not verify"))
        let strict = try CLIRunner.run(["inspect", "--strict", Self.display("damaged-cert.pub")])
        #expect(strict.status == 1)
        let json = try CLIRunner.run(["inspect", "--json", Self.display("damaged-cert.pub")])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdoutBytes)) as? [String: Any])
        #expect((object["warnings"] as? [String])?.contains { $0.contains("does not verify") } == true)
    }

    @Test("inspect names a malformed force-command, which ssh-keygen -L refuses, with a warning")
    func corruptOption() throws {
        let facts = try Self.displayFacts
        let listing = try #require(facts.listing.first { $0.file == "corrupt-option-cert.pub" })
        #expect(listing.status != 0)
        #expect(listing.stderr.contains("Option corrupt"))
        let result = try CLIRunner.run(["inspect", Self.display("corrupt-option-cert.pub")], environment: ["TZ": "UTC"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("                force-command MALFORMED VALUE: 000000092f62696e2f74727565010203 (len 16)"))
        #expect(!result.stdout.contains("UNKNOWN OPTION"))
        #expect(result.stdout.contains("  warning:          critical option 'force-command' has a malformed value"))
        // The CA signature itself is sound (the script signed it anew), as ssh-keygen -l agrees.
        #expect(result.stdout.contains("  CA signature:     verifies"))
        #expect(facts.fingerprint.first { $0.file == "corrupt-option-cert.pub" }?.status == 0)
    }

    @Test("inspect prints ssh-keygen -L's lines, validity in the local time of TZ, and names the zone",
          arguments: try displayFacts.listing.filter { $0.status == 0 })
    func localTime(_ fact: Run) throws {
        let tz = try #require(fact.tz)
        let result = try CLIRunner.run(["inspect", Self.display(fact.file)], environment: ["TZ": tz])
        #expect(result.status == 0, "\(result.stderr)")
        // Every line ssh-keygen -L printed after the file name, in order.
        let listing = fact.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
        #expect(result.stdout.contains(listing + "\n"), "\(result.stdout)")
        let valid = try #require(fact.stdout.split(separator: "\n").first { $0.hasPrefix("        Valid: ") })
        #expect(result.stdout.contains(valid + "\n"), "\(result.stdout)")
        let heading = try #require(result.stdout.split(separator: "\n").first { $0.contains("as ssh-keygen -L shows it") })
        let zone = ["UTC": "UTC+00:00)", "America/New_York": "EDT, UTC-04:00)", "Asia/Kolkata": "IST, UTC+05:30)"][tz]
        #expect(heading.hasSuffix("(times in local time: \(zone ?? "?"):"), "\(heading)")
        // The same interval in UTC, said so.
        let utc = try #require(try Self.displayFacts.listing.first { $0.file == fact.file && $0.tz == "UTC" })
        let utcValid = try #require(utc.stdout.split(separator: "\n").first { $0.hasPrefix("        Valid: ") })
        #expect(result.stdout.contains("  valid (UTC):      \(utcValid.dropFirst("        Valid: ".count)) UTC\n"))
    }

    @Test("a key type nobody knows is named by decode, inspect, fingerprint and match")
    func unknownKeyType() throws {
        let facts = try Self.displayFacts
        #expect(try #require(facts.fingerprint.first { $0.file == "unknown-type.pub" }).status != 0)
        let file = Self.display("unknown-type.pub")
        for arguments in [["inspect", file], ["fingerprint", file], ["match", file, Self.display("ed25519.pub")], ["convert", file, "--to", "spki", "-o", "-"]] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.stderr.contains("'ssh-mldsa44@openssh.com'"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("unknown-type.pub"), "\(arguments): \(result.stderr)")
        }
        // In a file with a key Coffer reads, the unknown line is a failure naming its line and type.
        let dir = try TestScratch.directory("keytool-unknown-type")
        defer { try? FileManager.default.removeItem(at: dir) }
        let mixed = dir.appendingPathComponent("mixed.pub")
        try Data(try Data(contentsOf: URL(fileURLWithPath: Self.display("ed25519.pub"))) + Data(contentsOf: URL(fileURLWithPath: file))).write(to: mixed)
        let result = try CLIRunner.run(["fingerprint", mixed.path])
        #expect(result.status == 1, "the readable key prints; the unreadable line makes the exit status 1")
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("line 2"))
        #expect(result.stderr.contains("'ssh-mldsa44@openssh.com'"))
    }
}
