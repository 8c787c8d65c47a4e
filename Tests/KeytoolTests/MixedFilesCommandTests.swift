import CofferTestSupport
import Foundation
import Testing

/// keytool on files of many entries (tools/realworld/mixed-files.sh): every entry printed, one
/// error line per entry not read, exit 0 while something was read, --strict; match over every
/// entry; writers that neither replace a file nor follow a link without --force.
@Suite("keytool on mixed files, and writers that keep existing files")
struct MixedFilesCommandTests {
    static let subject = "mixed-files"

    static func file(_ name: String) -> String {
        RealWorldFixtures.directory(subject).appendingPathComponent(name).path
    }

    static var passphrase: [String] { ["--passphrase-file", file("passphrase.txt")] }

    static func facts() throws -> [String: Any] {
        let data = try Data(contentsOf: RealWorldFixtures.directory(subject).appendingPathComponent("facts.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func object(_ line: some StringProtocol) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("fingerprint of authorized_keys: ssh-keygen -l's lines exactly; a line no tool knows is one error line, the others print, exit 1")
    func fingerprintAuthorizedKeys() throws {
        let facts = try #require(try Self.facts()["authorizedKeys"] as? [String: Any])
        let expected = try #require(facts["sshKeygenL"] as? [String])
        let result = try CLIRunner.run(["fingerprint", Self.file("authorized_keys")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == expected)
        #expect(result.stderr.isEmpty)

        // The same file with a third line of a key type nobody knows: the six keys still print.
        var lines = try String(contentsOfFile: Self.file("authorized_keys"), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        lines.insert("ssh-unknown AAAAC3NzaC1lZDI1NTE5AAAAIA== odd", at: 2)
        let odd = try TestScratch.directory("authorized-keys-odd").appendingPathComponent("authorized_keys").path
        try lines.joined(separator: "\n").write(toFile: odd, atomically: true, encoding: .utf8)
        let mixed = try CLIRunner.run(["fingerprint", odd])
        #expect(mixed.status == 1, "an entry that cannot be read makes the exit status 1: \(mixed.stderr)")
        #expect(mixed.stdout == result.stdout)
        #expect(mixed.stderr.split(separator: "\n").count == 1)
        #expect(mixed.stderr.hasPrefix("keytool: error: \(odd): line 3: "), "\(mixed.stderr)")
        let strict = try CLIRunner.run(["fingerprint", "--strict", odd])
        #expect(strict.status == 1)
        #expect(strict.stdout == result.stdout, "--strict still prints every key")
    }

    @Test("inspect --json of a JWK Set: keys with keyOps as arrays, skipped keys as error objects, exit 0")
    func inspectJWKSet() throws {
        let result = try CLIRunner.run(["inspect", "--json", Self.file("jwks.json")])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try result.stdout.split(separator: "\n").map(Self.object)
        let keys = objects.filter { $0["error"] == nil }
        let failures = objects.compactMap { $0["error"] as? [String: Any] }
        #expect(keys.map { $0["keyOps"] as? [String] } == [["verify"], ["verify", "encrypt"]])
        #expect(failures.map { $0["location"] as? String } == ["JWK Set key 1 of 4", "JWK Set key 3 of 4"])
        #expect(failures.allSatisfy { $0["code"] as? String == "unsupportedAlgorithm" && ($0["reason"] as? String)?.contains("RFC 7517 §5") == true })
        #expect(objects.filter { $0["error"] != nil }.allSatisfy { $0["file"] as? String == Self.file("jwks.json") })
    }

    @Test("inspect: a warning is shown, and --strict refuses it; a file with nothing readable exits 1")
    func strictAndNothingRead() throws {
        let bom = try CLIRunner.run(["inspect", "--json", Self.file("bom-rsa.pub")])
        #expect(bom.status == 0)
        #expect(try Self.object(bom.stdout.trimmingCharacters(in: .newlines))["warnings"] as? [String] == ["a UTF-8 byte-order mark precedes the text"])
        let strict = try CLIRunner.run(["inspect", "--strict", Self.file("bom-rsa.pub")])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("byte-order mark"))
        let only = TestScratch.path("only-oct.jwks")
        try Data(#"{"keys":[{"kty":"oct","k":"AAAA"}]}"#.utf8).write(to: URL(fileURLWithPath: only))
        let nothing = try CLIRunner.run(["inspect", only])
        #expect(nothing.status == 1)
        #expect(nothing.stdout.isEmpty)
        #expect(nothing.stderr.contains("JWK Set key 1 of 1: the JWK is a symmetric key"))
    }

    @Test("a PKCS#12 file without encryption opens with no passphrase option; one without a MAC shows its warning")
    func pkcs12WithoutProtection() throws {
        let plain = try CLIRunner.run(["inspect", Self.file("plain.p12")], stdin: [])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout.contains("format:           pkcs12 (der)"))
        #expect(plain.stdout.contains("warning:          no MAC: the file's integrity is not protected"))
        let nomac = try CLIRunner.run(["inspect", "--strict"] + Self.passphrase + [Self.file("nomac.p12")])
        #expect(nomac.status == 1)
        #expect(nomac.stdout.contains("pkcs8ShroudedKeyBag"), "--strict still prints every entry")
        #expect(nomac.stderr.contains("no MAC: the file's integrity is not protected (refused by --strict)"))
    }

    @Test("match compares with every certificate of a chain, naming the entry")
    func matchEveryEntry() throws {
        let facts = try #require(try Self.facts()["spkiSHA256"] as? [String: String])
        let result = try CLIRunner.run(["match", Self.file("inter.crt"), Self.file("chain.pem")])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").contains("\(facts["inter"]!) EC (P-256): \(Self.file("inter.crt")) \(Self.file("chain.pem"))[2]"))
        let json = try CLIRunner.run(["match", "--json"] + Self.passphrase + [Self.file("leaf.key"), Self.file("chain.p7b"), Self.file("named-cas.p12")])
        #expect(json.status == 0)
        let groups = try json.stdout.split(separator: "\n").map(Self.object)
        let leaf = try #require(groups.first { $0["spkiSHA256"] as? String == facts["leaf"] })
        #expect((leaf["files"] as? [String])?.count == 3)
        #expect((leaf["entries"] as? [String])?.contains("\(Self.file("chain.p7b"))[1]") == true)
        let none = try CLIRunner.run(["match", Self.file("leaf.key"), Self.file("inter.crt")])
        #expect(none.status == 1)
    }

    @Test("convert PKCS#12 to PKCS#12 keeps every certificate's friendly name (openssl pkcs12 -info -nokeys)")
    func pkcs12KeepsNames() throws {
        let facts = try #require(try Self.facts()["pkcs12FriendlyNames"] as? [String: [String]])
        let out = TestScratch.path("named.p12")
        let result = try CLIRunner.run(["convert", Self.file("named-cas.p12"), "--to", "pkcs12", "-o", out,
                                        "--new-passphrase-file", Self.file("passphrase.txt")] + Self.passphrase)
        #expect(result.status == 0, "\(result.stderr)")
        let info = try ToolProcess.run(tool: "openssl", ["pkcs12", "-info", "-nokeys", "-in", out, "-passin", "file:\(Self.file("passphrase.txt"))"])
        #expect(info.status == 0, "\(info.stderr)")
        let names = (info.text + info.stderr).split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "friendlyName: ") else { return nil }
            return String(line[range.upperBound...])
        }
        #expect(names == facts["named-cas"])
    }

    @Test("generate and convert -o: an existing file is kept without --force; a symbolic link is never written through")
    func writersKeepFiles() throws {
        let directory = try TestScratch.directory("writers")
        let existing = directory.appendingPathComponent("existing.pem").path
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: existing))
        let refused = try CLIRunner.run(["generate", "--type", "ed25519", "-o", existing])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("already exists; give --force"))
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me\n")
        let convertRefused = try CLIRunner.run(["convert", Self.file("leaf.key"), "--to", "pkcs8", "-o", existing])
        #expect(convertRefused.status == 1)
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me\n")

        let target = directory.appendingPathComponent("target.txt").path
        try Data("target\n".utf8).write(to: URL(fileURLWithPath: target))
        let link = directory.appendingPathComponent("link.pem").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        for arguments in [["generate", "--type", "ed25519", "-o", link], ["convert", Self.file("leaf.key"), "--to", "pkcs8", "-o", link]] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status == 1)
            #expect(result.stderr.contains("symbolic link"))
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "target\n")
        }
        let dangling = directory.appendingPathComponent("dangling.pem").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: directory.appendingPathComponent("nowhere").path)
        #expect(try CLIRunner.run(["generate", "--type", "ed25519", "-o", dangling]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("nowhere").path))

        // --force replaces the file, and the link itself, never the link's target.
        let forced = try CLIRunner.run(["generate", "--type", "ed25519", "--force", "-o", existing])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: existing, encoding: .utf8).hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let attributes = try FileManager.default.attributesOfItem(atPath: existing)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let forcedLink = try CLIRunner.run(["convert", Self.file("leaf.key"), "--to", "pkcs8", "--force", "-o", link])
        #expect(forcedLink.status == 0, "\(forcedLink.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "target\n")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil, "the link was replaced by a file")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".keytool-") }
        #expect(leftovers.isEmpty)
    }
}
