import CofferTestSupport
import Foundation
import Testing

/// keytool's text for people (issue 34): each warning of an entry printed once, one description
/// of a key (`EC (P-256)`, as `--json` and `keytool match` write it), and the values typed options
/// take and refuse.
@Suite("keytool text: warnings once, one key description, typed options")
struct InspectTextTests {
    static func realWorld(_ subject: String, _ file: String) -> String {
        CLIRunner.fixture("realworld/\(subject)/\(file)")
    }

    /// The entries of `inspect`'s text (blank-line separated), each as its lines.
    static func entries(_ stdout: String) -> [[Substring]] {
        stdout.components(separatedBy: "\n\n").map { $0.split(separator: "\n") }
    }

    /// The text of each `warning:` line, its label and padding removed.
    static func warnings(_ entry: [Substring]) -> [String] {
        entry.compactMap { line in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("warning:") else { return nil }
            return String(trimmed.dropFirst("warning:".count).drop { $0 == " " })
        }
    }

    @Test("inspect prints each warning of an entry once, as many as --json lists", arguments: [
        ("mixed-files", "plain.p12", [String]()), ("mixed-files", "nomac.p12", ["--passphrase-file", realWorld("mixed-files", "passphrase.txt")]),
        ("mixed-files", "bom-rsa.pub", []), ("mixed-files", "bom-leaf.crt", []), ("lenient-x509", "ca-false.pem", []),
    ])
    func warningsOnce(subject: String, file: String, extra: [String]) throws {
        let path = Self.realWorld(subject, file)
        let text = try CLIRunner.run(["inspect"] + extra + [path], stdin: [])
        #expect(text.status == 0, "\(text.stderr)")
        let json = try CLIRunner.run(["inspect", "--json"] + extra + [path], stdin: [])
        let objects = try json.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let entries = Self.entries(text.stdout)
        #expect(entries.count == objects.count)
        var sawWarning = false
        for (entry, object) in zip(entries, objects) {
            let listed = try #require(object["warnings"] as? [String])
            #expect(Self.warnings(entry).sorted() == listed.sorted(), "\(file): \(entry)")
            sawWarning = sawWarning || !listed.isEmpty
        }
        #expect(sawWarning, "\(file) is a fixture with a warning")
    }

    @Test("an EC key is EC (P-256) in inspect's and check's text, as in match and --json")
    func ecDescription() throws {
        let file = CLIRunner.fixture("keys/ec-p256.pkcs8.pem")
        let inspect = try CLIRunner.run(["inspect", file])
        #expect(inspect.stdout.contains("  key:              EC (P-256) private key\n"), "\(inspect.stdout)")
        let check = try CLIRunner.run(["check", file])
        #expect(check.stdout == "\(file): EC (P-256) key is consistent\n")
        let rsa = try CLIRunner.run(["check", CLIRunner.fixture("keys/rsa2048.pkcs1.pem")])
        #expect(rsa.stdout.hasSuffix(": RSA 2048-bit key is consistent\n"), "\(rsa.stdout)")
    }

    @Test("certificate verify: --profile, --purpose and --at are typed; a bad value names the option and what it takes", arguments: [
        (["--profile", "browser"], ["'browser'", "--profile", "rfc5280", "webpki"]),
        (["--purpose", "mail"], ["'mail'", "--purpose", "server, client, code-signing, any or an OID"]),
        (["--at", "yesterday"], ["'yesterday'", "--at", "RFC 3339"]),
        (["--at", "2030-01-01T00:00:00.5+25:00"], ["--at", "RFC 3339"]),
    ])
    func typedVerifyOptions(extra: [String], says: [String]) throws {
        let pki = { (name: String) in CLIRunner.fixture("pki/\(name)") }
        let result = try CLIRunner.run(["certificate", "verify", pki("leaf-rsa.pem"), "--roots", pki("root-rsa.pem")] + extra)
        #expect(result.status == 64)
        for text in says { #expect(result.stderr.contains(text), "\(text): \(result.stderr)") }
    }

    @Test("certificate verify takes an OID for --purpose and both --at forms")
    func verifyOptionValues() throws {
        let pki = { (name: String) in CLIRunner.fixture("pki/\(name)") }
        for extra in [["--purpose", "1.3.6.1.5.5.7.3.1"], ["--purpose", "any"], ["--at", "2030-01-01T02:00:00+02:00"], ["--at", "@1893456000"],
                      ["--profile", "webpki"]] {
            let result = try CLIRunner.run(["certificate", "verify", pki("chain-rsa.pem"), "--roots", pki("root-rsa.pem"), "--json"] + extra)
            #expect(result.status == 0 || result.status == 1, "\(extra): \(result.stderr)")
            #expect(result.stdout.hasPrefix("{\"valid\":"), "\(extra): \(result.stdout)")
        }
    }

    @Test("the help of certificate verify and convert lists the values of their enumerated options")
    func helpListsValues() throws {
        let verify = try CLIRunner.run(["certificate", "verify", "--help"])
        #expect(verify.stdout.contains("rfc5280"), "\(verify.stdout)")
        let convert = try CLIRunner.run(["convert", "--ppk-version", "4", "x", "--to", "ppk"])
        #expect(convert.status == 64)
        #expect(convert.stderr.contains("'2'") && convert.stderr.contains("'3'"), "\(convert.stderr)")
    }
}
