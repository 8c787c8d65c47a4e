import CofferTestSupport
import Foundation
import Testing

@Suite("keytool certificate verify")
struct CertificateVerifyCommandTests {
    static func pki(_ name: String) -> String { CLIRunner.fixture("pki/\(name)") }
    /// facts.tsv's verification time, 2030-01-01T00:00:00Z.
    static let at = "@1893456000"

    func verify(_ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
        try CLIRunner.run(["certificate", "verify"] + arguments, environment: environment)
    }

    func object(_ result: CLIResult) throws -> [String: Any] {
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1, "one JSON object: \(result.stdout)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test("usage errors exit 64 and name the option")
    func usage() throws {
        let leaf = Self.pki("leaf-rsa.pem"), root = Self.pki("root-rsa.pem")
        let cases: [([String], String)] = [
            ([leaf], "--roots"),
            ([leaf, "--roots", root, "--system-roots"], "not both"),
            ([leaf, "--roots", root, "--host", "a.example", "--ip", "10.0.0.1"], "one of --host"),
            ([leaf, "--roots", root, "--host", "foo_bar.example"], "foo_bar.example"),
            ([leaf, "--roots", root, "--host", "*.example.com"], "not a host name"),
            ([leaf, "--roots", root, "--ip", "300.1.1.1"], "300.1.1.1"),
            ([leaf, "--roots", root, "--email", "nobody"], "nobody"),
            ([leaf, "--roots", root, "--at", "yesterday"], "--at"),
            ([leaf, "--roots", root, "--at", "2030-13-01T00:00:00Z"], "--at"),
            ([leaf, "--roots", root, "--purpose", "mail"], "--purpose"),
            ([leaf, "--roots", root, "--profile", "browser"], "--profile"),
            ([leaf, "--roots", root, "--max-depth", "-1"], "--max-depth"),
            ([leaf, "--roots", root, "--crl-check", "some"], "--crl-check"),
        ]
        for (arguments, text) in cases {
            let result = try verify(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(text), "\(arguments): \(result.stderr)")
        }
    }

    @Test("unreadable inputs exit 2 naming the file")
    func unreadable() throws {
        let leaf = Self.pki("leaf-rsa.pem"), root = Self.pki("root-rsa.pem")
        let cases: [([String], String)] = [
            (["/nonexistent/leaf.pem", "--roots", root], "/nonexistent/leaf.pem: no such file"),
            ([Self.pki("roots-dir/README.txt"), "--roots", root], "README.txt"),
            ([Self.pki("crl-rsa-revoked.pem"), "--roots", root], "crl-rsa-revoked.pem"),
            ([leaf, "--roots", "/nonexistent/roots.pem"], "/nonexistent/roots.pem"),
            ([leaf, "--roots", Self.pki("crl-rsa-revoked.pem")], "crl-rsa-revoked.pem"),
            ([leaf, "--roots", root, "--untrusted", "/nonexistent/inter.pem"], "/nonexistent/inter.pem"),
        ]
        for (arguments, text) in cases {
            let result = try verify(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(text), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        let noSystem = try verify([leaf, "--system-roots"], environment: ["SSL_CERT_FILE": "/nonexistent/bundle.pem"])
        #expect(noSystem.status == 2)
        #expect(noSystem.stderr.contains("SSL_CERT_FILE=/nonexistent/bundle.pem"))
    }

    @Test("--json is one object with valid, chain and failedPaths naming each failure")
    func jsonShape() throws {
        // A wrong host fails with any verifier, so the shape is checked on a failing answer.
        let result = try verify([Self.pki("chain-rsa.pem"), "--roots", Self.pki("root-rsa.pem"), "--host", "other.pki.example",
                                 "--at", Self.at, "--json"])
        #expect(result.status == 1, "\(result.stderr)")
        let object = try object(result)
        #expect(object["valid"] as? Bool == false)
        #expect((object["chain"] as? [Any])?.isEmpty == true)
        #expect(object["roots"] as? String == "file \(Self.pki("root-rsa.pem"))")
        let paths = try #require(object["failedPaths"] as? [[String: Any]])
        #expect(!paths.isEmpty)
        for path in paths {
            let certificates = try #require(path["path"] as? [[String: Any]])
            #expect(certificates.first?["subject"] as? String == "CN=leaf.rsa.pki.example,O=Coffer PKI")
            #expect((certificates.first?["spkiSHA256"] as? String)?.hasPrefix("sha256//") == true)
            #expect(certificates.first?["notAfter"] as? String == "2045-01-01T00:00:00Z")
            let failures = try #require(path["failures"] as? [[String: Any]])
            #expect(!failures.isEmpty)
            for failure in failures {
                #expect(failure["certificate"] is Int)
                #expect(failure["reason"] is String)
                #expect(failure["detail"] is String)
            }
        }
    }

    @Test("the text answer names each path and the certificate that failed")
    func textShape() throws {
        let result = try verify([Self.pki("leaf-rsa.pem"), "--roots", Self.pki("root-p256.pem"), "--at", "2030-01-01T02:00:00+02:00"])
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("not valid: "))
        #expect(result.stdout.contains("path 1: CN=leaf.rsa.pki.example,O=Coffer PKI"))
        #expect(result.stdout.contains("  certificate 0 (CN=leaf.rsa.pki.example,O=Coffer PKI): "))
    }

    @Test("--system-roots reads SSL_CERT_FILE first and says so")
    func systemRootsSource() throws {
        let bundle = Self.pki("roots-bundle.pem")
        let result = try verify([Self.pki("chain-rsa.pem"), "--system-roots", "--host", "other.pki.example", "--at", Self.at, "--json"],
                                environment: ["SSL_CERT_FILE": bundle, "SSL_CERT_DIR": ""])
        #expect(try object(result)["roots"] as? String == "SSL_CERT_FILE=\(bundle)")
    }

    // MARK: - End to end: these need CertificateVerifier.verify, which is a stub on this branch.

    @Test("a valid chain verifies, names its chain and exits 0")
    func validChain() throws {
        for alg in ["rsa", "p256", "ed25519"] {
            let result = try verify([Self.pki("leaf-\(alg).pem"), "--untrusted", Self.pki("intermediate-\(alg).pem"),
                                     "--roots", Self.pki("root-\(alg).pem"), "--host", "leaf.\(alg).pki.example",
                                     "--purpose", "server", "--at", Self.at, "--crl", Self.pki("crl-\(alg == "rsa" ? "rsa-revoked" : "\(alg)-empty").pem"),
                                     Self.pki("crl-root-\(alg)-empty.pem"), "--json"])
            #expect(result.status == 0, "\(alg): \(result.stdout) \(result.stderr)")
            let chain = try #require(try object(result)["chain"] as? [[String: Any]])
            #expect(chain.map { $0["subject"] as? String } == [
                "CN=leaf.\(alg).pki.example,O=Coffer PKI", "CN=Coffer PKI Intermediate \(alg),O=Coffer PKI", "CN=Coffer PKI Root \(alg),O=Coffer PKI",
            ])
        }
        let text = try verify([Self.pki("chain-rsa.pem"), "--roots", Self.pki("root-rsa.pem"), "--at", Self.at])
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("valid: a chain of 3 certificates"))
    }

    @Test("a revoked leaf fails with revoked")
    func revokedLeaf() throws {
        let result = try verify([Self.pki("leaf-revoked.pem"), "--untrusted", Self.pki("intermediate-rsa.pem"), "--roots", Self.pki("root-rsa.pem"),
                                 "--crl", Self.pki("crl-rsa-revoked.pem"), Self.pki("crl-root-rsa-empty.pem"), "--at", Self.at, "--json"])
        #expect(result.status == 1)
        let paths = try #require(try object(result)["failedPaths"] as? [[String: Any]])
        let reasons = paths.flatMap { ($0["failures"] as? [[String: Any]] ?? []).compactMap { $0["reason"] as? String } }
        #expect(reasons.contains("revoked"))
    }

    @Test("a wrong host fails with peer-mismatch")
    func wrongHost() throws {
        let result = try verify([Self.pki("chain-rsa.pem"), "--roots", Self.pki("root-rsa.pem"), "--host", "other.pki.example", "--at", Self.at, "--json"])
        #expect(result.status == 1)
        let paths = try #require(try object(result)["failedPaths"] as? [[String: Any]])
        let reasons = paths.flatMap { ($0["failures"] as? [[String: Any]] ?? []).compactMap { $0["reason"] as? String } }
        #expect(reasons == ["peer-mismatch"])
    }

    @Test("the system roots verify a chain whose root is in the bundle")
    func systemRoots() throws {
        let result = try verify([Self.pki("chain-p256.pem"), "--system-roots", "--host", "leaf.p256.pki.example", "--at", Self.at],
                                environment: ["SSL_CERT_FILE": Self.pki("roots-bundle.pem"), "SSL_CERT_DIR": ""])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("SSL_CERT_FILE="))
    }
}
