import CofferTestSupport
import Foundation
import Testing

/// `keytool sign --format sshsig` and `keytool verify` against `ssh-keygen -Y` run now, both ways,
/// for every key type SSH signs with; and the exit statuses of verify's verdicts.
@Suite("keytool SSHSIG and signature verdicts")
struct SSHSignatureCommandTests {
    /// ssh-keygen -t/-b for each key type SSH signs with.
    static let keyTypes: [(String, String)] = [("rsa", "3072"), ("ecdsa", "256"), ("ecdsa", "384"), ("ecdsa", "521"), ("ed25519", "256")]

    /// A fresh key pair by ssh-keygen, a data file and an allowed_signers file naming the key for
    /// alice@example.com in namespace "file".
    struct Setup {
        var directory: URL
        var key: String { directory.appendingPathComponent("id").path }
        var publicKey: String { key + ".pub" }
        var data: String { directory.appendingPathComponent("data.bin").path }
        var tampered: String { directory.appendingPathComponent("tampered.bin").path }
        var allowedSigners: String { directory.appendingPathComponent("allowed_signers").path }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    }

    static func setup(_ type: String, _ bits: String) throws -> Setup {
        let setup = Setup(directory: try TestScratch.directory("sshsig-\(type)-\(bits)"))
        try ToolProcess.output(tool: "ssh-keygen", ["-q", "-t", type, "-b", bits, "-N", "", "-C", "signer", "-f", setup.key])
        var bytes = [UInt8](repeating: 0, count: 3000)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 7 &+ 3) }
        try Data(bytes).write(to: URL(fileURLWithPath: setup.data))
        bytes[1500] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: setup.tampered))
        let line = try String(contentsOfFile: setup.publicKey, encoding: .utf8)
        try "alice@example.com namespaces=\"file\" \(line)".write(toFile: setup.allowedSigners, atomically: true, encoding: .utf8)
        return setup
    }

    static func sshKeygenVerify(_ setup: Setup, signature: String, data: String, identity: String = "alice@example.com",
                                namespace: String = "file") throws -> ToolOutput {
        try ToolProcess.run(tool: "ssh-keygen", ["-Y", "verify", "-f", setup.allowedSigners, "-I", identity, "-n", namespace, "-s", signature],
                            stdin: Array(try Data(contentsOf: URL(fileURLWithPath: data))))
    }

    @Test("Coffer signs, ssh-keygen -Y verify accepts; a tampered file and another namespace it rejects", arguments: keyTypes)
    func cofferSigns(_ type: String, _ bits: String) throws {
        let setup = try Self.setup(type, bits)
        for hash in ["sha512", "sha256"] {
            let signature = setup.path("coffer-\(hash).sig")
            let signed = try CLIRunner.run(["sign", "--format", "sshsig", "--namespace", "file", "--hash", hash, "--key", setup.key, "-o", signature, setup.data])
            #expect(signed.status == 0, "\(signed.stderr)")
            let good = try Self.sshKeygenVerify(setup, signature: signature, data: setup.data)
            #expect(good.status == 0, "\(good.stderr)")
            #expect(good.text.hasPrefix("Good \"file\" signature for alice@example.com"))
            #expect(try Self.sshKeygenVerify(setup, signature: signature, data: setup.tampered).status != 0)
            #expect(try Self.sshKeygenVerify(setup, signature: signature, data: setup.data, namespace: "git").status != 0)
        }
    }

    @Test("ssh-keygen signs, Coffer verifies; tampered → 1, bad namespace or identity → 1 with the reason", arguments: keyTypes)
    func sshKeygenSigns(_ type: String, _ bits: String) throws {
        let setup = try Self.setup(type, bits)
        try ToolProcess.output(tool: "ssh-keygen", ["-q", "-Y", "sign", "-f", setup.key, "-n", "file", setup.data])
        let signature = setup.data + ".sig"
        let expected = try Self.sshKeygenVerify(setup, signature: signature, data: setup.data)
        #expect(expected.status == 0)
        let good = try CLIRunner.run(["verify", "--signature", signature, "--allowed-signers", setup.allowedSigners,
                                      "--identity", "alice@example.com", "--namespace", "file", setup.data])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout == expected.text, "ssh-keygen's words")
        let novalidate = try CLIRunner.run(["verify", "--signature", signature, "--key", setup.publicKey, "--namespace", "file", setup.data])
        #expect(novalidate.status == 0, "\(novalidate.stderr)")
        let tampered = try CLIRunner.run(["verify", "--signature", signature, "--key", setup.publicKey, "--namespace", "file", setup.tampered])
        #expect(tampered.status == 1)
        #expect(tampered.stderr.contains("signature does not verify"))
        let namespace = try CLIRunner.run(["verify", "--signature", signature, "--key", setup.publicKey, "--namespace", "git", setup.data])
        #expect(namespace.status == 1)
        #expect(namespace.stderr.contains("namespace 'file', not 'git'"))
        let identity = try CLIRunner.run(["verify", "--signature", signature, "--allowed-signers", setup.allowedSigners,
                                          "--identity", "mallory@example.com", "--namespace", "file", setup.data])
        #expect(identity.status == 1)
        #expect(identity.stderr.contains("no allowed signers line names 'mallory@example.com'"))
        let otherNamespace = try CLIRunner.run(["verify", "--signature", signature, "--allowed-signers", setup.allowedSigners,
                                                "--identity", "alice@example.com", "--namespace", "email", setup.data])
        #expect(otherNamespace.status == 1)
        #expect(otherNamespace.stderr.contains("namespace 'email' is not among \"file\""))
    }

    @Test("Ed25519 SSHSIG from keytool is byte-identical to ssh-keygen's")
    func ed25519Identical() throws {
        let setup = try Self.setup("ed25519", "256")
        try ToolProcess.output(tool: "ssh-keygen", ["-q", "-Y", "sign", "-f", setup.key, "-n", "file", setup.data])
        let ours = try CLIRunner.run(["sign", "--format", "sshsig", "--namespace", "file", "--key", setup.key, setup.data])
        #expect(ours.status == 0)
        #expect(ours.stdoutBytes == Array(try Data(contentsOf: URL(fileURLWithPath: setup.data + ".sig"))))
    }

    @Test("signing with a certificate: ssh-keygen accepts it under a cert-authority line, for a listed principal only")
    func certificateSigning() throws {
        let setup = try Self.setup("ecdsa", "384")
        let ca = setup.path("ca")
        try ToolProcess.output(tool: "ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "ca", "-f", ca])
        try ToolProcess.output(tool: "ssh-keygen", ["-q", "-s", ca, "-I", "signer", "-n", "alice@example.com,bob", setup.publicKey])
        let caLine = try String(contentsOfFile: ca + ".pub", encoding: .utf8)
        try "alice@example.com,bob,carol cert-authority \(caLine)".write(toFile: setup.allowedSigners, atomically: true, encoding: .utf8)
        let signature = setup.path("cert.sig")
        let signed = try CLIRunner.run(["sign", "--format", "sshsig", "--namespace", "file", "--key", setup.key,
                                        "--certificate", setup.key + "-cert.pub", "-o", signature, setup.data])
        #expect(signed.status == 0, "\(signed.stderr)")
        let accepted = try Self.sshKeygenVerify(setup, signature: signature, data: setup.data)
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.text.contains("ECDSA-CERT key"))
        // carol matches the line but is not in the certificate: both refuse.
        #expect(try Self.sshKeygenVerify(setup, signature: signature, data: setup.data, identity: "carol").status != 0)
        let carol = try CLIRunner.run(["verify", "--signature", signature, "--allowed-signers", setup.allowedSigners,
                                       "--identity", "carol", "--namespace", "file", setup.data])
        #expect(carol.status == 1)
        #expect(carol.stderr.contains("does not list 'carol'"))
        let ours = try CLIRunner.run(["verify", "--signature", signature, "--allowed-signers", setup.allowedSigners,
                                      "--identity", "bob", "--namespace", "file", setup.data])
        #expect(ours.status == 0, "\(ours.stderr)")
        #expect(ours.stdout == (try Self.sshKeygenVerify(setup, signature: signature, data: setup.data, identity: "bob")).text)
    }

    // MARK: Verdicts: 2 for a signature that cannot be read, 1 for one that does not verify

    /// An RSA and a P-256 key by openssl, data, and good signatures of both.
    struct RawSetup {
        var directory: URL
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        func write(_ bytes: [UInt8], _ name: String) throws -> String {
            try Data(bytes).write(to: directory.appendingPathComponent(name))
            return path(name)
        }
        func read(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: directory.appendingPathComponent(name))) }
    }

    static func rawSetup() throws -> RawSetup {
        let setup = RawSetup(directory: try TestScratch.directory("verdicts"))
        try ToolProcess.output(tool: "openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", setup.path("rsa.pem")])
        try ToolProcess.output(tool: "openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", setup.path("ec.pem")])
        try ToolProcess.output(tool: "openssl", ["genpkey", "-algorithm", "ED25519", "-out", setup.path("ed.pem")])
        _ = try setup.write(Array("data to sign\n".utf8), "data")
        _ = try setup.write(Array("data to sign!\n".utf8), "other")
        for key in ["rsa", "ec"] {
            try ToolProcess.output(tool: "openssl", ["dgst", "-sha256", "-sign", setup.path("\(key).pem"), "-out", setup.path("\(key).sig"), setup.path("data")])
        }
        return setup
    }

    static func verify(_ setup: RawSetup, key: String, signature: String, data: String = "data", _ extra: [String] = []) throws -> CLIResult {
        try CLIRunner.run(["verify", "--key", setup.path(key), "--signature", signature] + extra + [setup.path(data)])
    }

    @Test("unreadable signatures exit 2 naming what the file is; a good one 0, a wrong one 1")
    func verdicts() throws {
        let setup = try Self.rawSetup()
        let rsaSignature = try setup.read("rsa.sig")
        let ecSignature = try setup.read("ec.sig")
        #expect(try Self.verify(setup, key: "rsa.pem", signature: setup.path("rsa.sig")).status == 0)
        let wrong = try Self.verify(setup, key: "rsa.pem", signature: setup.path("rsa.sig"), data: "other")
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("signature does not verify"))

        let cases: [(key: String, bytes: [UInt8], extra: [String], says: String)] = [
            ("rsa.pem", [], [], "the file is empty"),
            ("rsa.pem", Array(Data(rsaSignature).base64EncodedString().utf8) + [0x0A], [], "base64 text"),
            ("rsa.pem", Array(rsaSignature.map { String(format: "%02x", $0) }.joined().utf8) + [0x0A], [], "hex text"),
            ("rsa.pem", Array(rsaSignature.dropLast()), [], "it has 255 bytes; a signature by this 2048-bit RSA key has 256"),
            ("rsa.pem", try setup.read("rsa.pem"), [], "PEM text"),
            ("ec.pem", try Self.rawECDSA(ecSignature), [], "the size of a raw r ‖ s P-256 signature; give --signature-format raw"),
            ("ec.pem", ecSignature, ["--signature-format", "raw"], "it is a DER ECDSA signature, not raw r ‖ s"),
            ("ec.pem", Array(ecSignature.dropLast(3)), [], "it is not a DER ECDSA signature"),
            ("ed.pem", [UInt8](repeating: 0x80, count: 63), [], "an Ed25519 signature has 64"),
            ("rsa.pem", Array(try Data(contentsOf: RealWorldFixtures.directory("sshsig").appendingPathComponent("rsa.sig"))), [],
             "this is an SSHSIG signature (ssh-keygen -Y sign), detected; verify it with --namespace N"),
        ]
        for (index, item) in cases.enumerated() {
            let file = try setup.write(item.bytes, "case\(index).sig")
            let result = try Self.verify(setup, key: item.key, signature: file, item.extra)
            #expect(result.status == 2, "case \(index): \(result.stderr)")
            #expect(result.stderr.contains("cannot read the signature"), "case \(index): \(result.stderr)")
            #expect(result.stderr.contains(item.says), "case \(index): \(result.stderr)")
        }
        // The raw r ‖ s form verifies once it is named.
        let raw = try setup.write(try Self.rawECDSA(ecSignature), "raw.sig")
        #expect(try Self.verify(setup, key: "ec.pem", signature: raw, ["--signature-format", "raw"]).status == 0)
    }

    /// r ‖ s of a DER P-256 signature, by openssl's own parse of it.
    static func rawECDSA(_ der: [UInt8]) throws -> [UInt8] {
        let text = try ToolProcess.run(tool: "openssl", ["asn1parse", "-inform", "DER"], stdin: der).text
        let numbers = text.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("INTEGER"), let colon = line.lastIndex(of: ":") else { return nil }
            return String(line[line.index(after: colon)...])
        }
        return numbers.flatMap { hex -> [UInt8] in
            let padded = String(repeating: "0", count: max(0, 64 - hex.count)) + hex
            return TestHex.bytes(padded)
        }
    }

    @Test("an SSHSIG file that is damaged exits 2; a signature by another key exits 1")
    func sshsigVerdicts() throws {
        let directory = RealWorldFixtures.directory("sshsig")
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let scratch = try TestScratch.directory("sshsig-damaged")
        var text = String(decoding: try RealWorldFixtures.bytes("sshsig", "ed25519.sig"), as: UTF8.self)
        text = text.replacingOccurrences(of: "U1NIU0lHAAAAAQ", with: "U1NIU0lHAAAAAg")   // version 2
        let damaged = scratch.appendingPathComponent("damaged.sig")
        try text.write(to: damaged, atomically: true, encoding: .utf8)
        let result = try CLIRunner.run(["verify", "--signature", damaged.path, "--key", path("ed25519.pub"), "--namespace", "file", path("data.txt")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("version 2"))
        let other = try CLIRunner.run(["verify", "--signature", path("rsa.sig"), "--key", path("ed25519.pub"), "--namespace", "file", path("data.txt")])
        #expect(other.status == 1)
        #expect(other.stderr.contains("made by another key"))
    }

    // MARK: Certificates on the command line

    static let certificates = RealWorldFixtures.directory("ssh-certificates")

    @Test("inspect prints ssh-keygen -L's lines; fingerprint prints ssh-keygen -l's; match pairs the certificate with its key")
    func certificateCommands() throws {
        struct Fact: Decodable { var certificate: String; var key: String; var ca: String; var signatureValid: Bool; var listing: [String]; var fingerprint: String }
        let facts = try FixtureFacts.load([Fact].self, in: Self.certificates)
        for fact in facts where fact.signatureValid {
            let file = Self.certificates.appendingPathComponent(fact.certificate).path
            // The facts were recorded with TZ=UTC; keytool, as ssh-keygen, prints local time.
            let inspect = try CLIRunner.run(["inspect", file, "--ca", Self.certificates.appendingPathComponent(fact.ca).path],
                                            environment: ["TZ": "UTC"])
            #expect(inspect.status == 0, "\(fact.certificate): \(inspect.stderr)")
            let lines = inspect.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.contains { $0.hasPrefix("  CA signature:") && $0.hasSuffix("verifies") })
            if let start = lines.firstIndex(of: fact.listing[0]) {
                #expect(Array(lines[start..<min(lines.count, start + fact.listing.count)]) == fact.listing, "\(fact.certificate)")
            } else {
                Issue.record("\(fact.certificate): no '\(fact.listing[0])' in \(inspect.stdout)")
            }
            let fingerprint = try CLIRunner.run(["fingerprint", file])
            #expect(fingerprint.stdout == fact.fingerprint + "\n")
            let match = try CLIRunner.run(["match", file, Self.certificates.appendingPathComponent("\(fact.key).pub").path])
            #expect(match.status == 0, "\(match.stdout) \(match.stderr)")
        }
    }

    @Test("inspect --ca with another CA exits 1; --json says whether the signature and the CA check out")
    func certificateCA() throws {
        let file = Self.certificates.appendingPathComponent("user-ed25519-cert.pub").path
        let wrong = try CLIRunner.run(["inspect", file, "--ca", Self.certificates.appendingPathComponent("ca-rsa.pub").path])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("not signed by the CA"))
        let json = try CLIRunner.run(["inspect", "--json", file, "--ca", Self.certificates.appendingPathComponent("ca-ecdsa.pub").path])
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdoutBytes)) as? [String: Any])
        let certificate = try #require(object["sshCertificate"] as? [String: Any])
        #expect(certificate["signatureValid"] as? Bool == true)
        #expect(certificate["signedByGivenCA"] as? Bool == true)
        #expect(certificate["kind"] as? String == "user")
        #expect(certificate["principals"] as? [String] == ["erin", "*"])
        let damaged = try CLIRunner.run(["inspect", "--json", Self.certificates.appendingPathComponent("damaged-signature-cert.pub").path])
        let damagedObject = try #require(try JSONSerialization.jsonObject(with: Data(damaged.stdoutBytes)) as? [String: Any])
        #expect((damagedObject["sshCertificate"] as? [String: Any])?["signatureValid"] as? Bool == false)
    }
}
