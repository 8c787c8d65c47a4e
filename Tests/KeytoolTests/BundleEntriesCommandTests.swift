import CofferTestSupport
import Foundation
import Testing

/// PEM bundles with one block keytool cannot read, and PKCS#12 files that need no password
/// (tools/realworld/bundles.sh; facts from openssl and Python cryptography): the readable entries
/// print, the unreadable ones are named with their reason, exit 1 when any failed; the empty
/// password is tried before asking.
@Suite("keytool on bundles with an unreadable block, and PKCS#12 without a password")
struct BundleEntriesCommandTests {
    static let subject = "bundles"

    static func file(_ name: String) -> String {
        RealWorldFixtures.directory(subject).appendingPathComponent(name).path
    }

    static func facts() throws -> [String: Any] {
        let data = try Data(contentsOf: RealWorldFixtures.directory(subject).appendingPathComponent("facts.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func sha256(_ name: String) throws -> String {
        let entry = try #require(try facts()[name] as? [String: Any])
        return try #require(entry["sha256"] as? String)
    }

    static func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("a certificate then an encrypted key, no passphrase and no terminal: the certificate shows (as openssl x509), the key is one error, exit 1",
          arguments: ["inspect", "fingerprint"])
    func certificateThenEncryptedKey(command: String) throws {
        let path = Self.file("cert-and-encrypted-key.pem")
        let result = try CLIRunner.run([command, path], stdin: [])
        #expect(result.status == 1, "\(result.stderr)")
        let errors = result.stderr.split(separator: "\n")
        #expect(errors.count == 1, "\(result.stderr)")
        #expect(errors.first?.hasPrefix("keytool: error: \(path): PEM block 'ENCRYPTED PRIVATE KEY' at offset ") == true, "\(result.stderr)")
        #expect(result.stderr.contains("no passphrase was given; give --passphrase-file or --passphrase-env"))
        if command == "inspect" {
            let first = try #require(try Self.facts()["opensslFirstCertificate"] as? [String: String])
            #expect(result.stdout.contains(try #require(first["cert-and-encrypted-key.pem"])))
            #expect(result.stdout.contains("CN=bundle.example"))
        } else {
            #expect(result.stdout.split(separator: "\n").count == 1)
        }
    }

    @Test("with the passphrase, the same bundle reads whole: exit 0")
    func certificateThenEncryptedKeyWithPassphrase() throws {
        let passphrase = try TestScratch.directory("bundle-passphrase").appendingPathComponent("pass.txt")
        try "bundles\n".write(to: passphrase, atomically: true, encoding: .utf8)
        let result = try CLIRunner.run(["fingerprint", Self.file("cert-and-encrypted-key.pem"), "--passphrase-file", passphrase.path], stdin: [])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(Set(lines.map { $0.split(separator: " ")[1] }).count == 1, "the certificate and its key have one fingerprint")
    }

    @Test("a chain whose second block is damaged: the first and third certificates show, the second is named with its offset, exit 1",
          arguments: [("chain-no-end.pem", "has no END line before the next BEGIN"), ("chain-bad-base64.pem", "has bad base64 at offset")])
    func damagedSecondBlock(name: String, reason: String) throws {
        let path = Self.file(name)
        let result = try CLIRunner.run(["inspect", "--json", path], stdin: [])
        #expect(result.status == 1, "\(result.stderr)")
        let objects = try Self.objects(result.stdout)
        let certificates = objects.compactMap { $0["certificateSHA256"] as? String }
        #expect(certificates == [try Self.sha256("leaf"), try Self.sha256("root")])
        let first = try #require(try Self.facts()["opensslFirstCertificate"] as? [String: String])
        #expect(certificates.first == first[name], "the first certificate is the one openssl x509 shows")
        let failures = objects.compactMap { $0["error"] as? [String: Any] }
        #expect(failures.count == 1)
        #expect(failures.first?["location"] as? String == "PEM block 2 of 3")
        #expect((failures.first?["reason"] as? String)?.contains(reason) == true, "\(failures)")
        #expect((failures.first?["reason"] as? String)?.contains("'CERTIFICATE' at offset") == true)

        let text = try CLIRunner.run(["fingerprint", path], stdin: [])
        #expect(text.status == 1)
        #expect(text.stdout.split(separator: "\n").count == 2)
        #expect(text.stderr.contains("\(path): PEM block 2 of 3: "), "\(text.stderr)")

        let match = try CLIRunner.run(["match", path, Self.file("chain-no-end.pem")], stdin: [])
        #expect(match.status == 1, "an unreadable entry makes match exit 1 even when keys are shared")
        #expect(!match.stdout.isEmpty)
    }

    @Test("convert of a bundle with an unreadable block: the one key read is written, the block named, exit 1")
    func convertBundle() throws {
        let out = try TestScratch.directory("bundle-convert").appendingPathComponent("leaf.spki.pem")
        let result = try CLIRunner.run(["convert", Self.file("cert-and-encrypted-key.pem"), "--to", "spki", "--out", out.path], stdin: [])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("PEM block 'ENCRYPTED PRIVATE KEY'"))
        let written = try String(contentsOf: out, encoding: .utf8)
        #expect(written.hasPrefix("-----BEGIN PUBLIC KEY-----"))
    }

    @Test("PKCS#12 with the empty password (openssl modern and -legacy, pyca's no-password.p12): read without asking, 'no passphrase needed'",
          arguments: ["empty-password.p12", "empty-password-legacy.p12", "no-password.p12"])
    func emptyPasswordPKCS12(name: String) throws {
        let pkcs12 = try #require(try Self.facts()["pkcs12"] as? [String: Any])
        let python = try #require(pkcs12[name] as? [String: Any])
        let none = try #require(python["none"] as? [String: Any])
        let certificate = try #require(none["certificate"] as? String, "Python reads it with password=None")
        #expect(none["key"] as? Bool == true)

        let result = try CLIRunner.run(["inspect", "--json", Self.file(name)], stdin: [])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try Self.objects(result.stdout)
        #expect(objects.contains { $0["certificateSHA256"] as? String == certificate })
        #expect(objects.contains { $0["private"] as? Bool == true })
        #expect(objects.contains { $0["emptyPassword"] as? Bool == true })
        let text = try CLIRunner.run(["inspect", Self.file(name)], stdin: [])
        #expect(text.stdout.contains("(empty password: no passphrase needed)"))
        #expect(!text.stdout.contains("\u{0}"), "a friendlyName's terminating NUL is not printed")
    }
}
