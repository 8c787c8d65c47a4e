import CofferTestSupport
import Foundation
import Testing

/// `keytool inspect` and `keytool certificate verify` on DSA signatures openssl made
/// (`Fixtures/realworld/dsa/x509`, `tools/realworld/dsa.sh x509`), against what `openssl req
/// -verify` and `openssl verify -auth_level 0` said (`x509/facts.json`).
@Suite("keytool and DSA signatures")
struct DSASignatureCommandTests {
    typealias Fact = DSASignatureFact

    static var facts: [Fact] {
        get throws { try DSASignatureFact.load() }
    }

    static func path(_ file: String) -> String {
        RealWorldFixtures.directory("dsa").appendingPathComponent("x509").appendingPathComponent(file).path
    }

    @Test("inspect says a DSA-signed request's signature is valid exactly when openssl req -verify does",
          arguments: try facts.filter { $0.kind == "request" })
    func inspectRequest(_ fact: Fact) throws {
        let json = try CLIRunner.run(["inspect", "--json", Self.path(fact.file)])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["signatureValid"] as? Bool == fact.opensslVerifies)
        #expect(object["signatureAlgorithm"] as? String == fact.signatureAlgorithm)
        let text = try CLIRunner.run(["inspect", Self.path(fact.file)])
        #expect(text.stdout.contains("\(fact.signatureAlgorithm) (\(fact.opensslVerifies ? "valid" : "DOES NOT VERIFY"))"), "\(text.stdout)")
    }

    @Test("certificate verify --allow-sha1 accepts what openssl verify -auth_level 0 accepts from the DSA CA",
          arguments: try facts.filter { $0.kind == "certificate" })
    func verifyCertificate(_ fact: Fact) throws {
        // At the current time: the fixtures are valid for 20 years from when they were made.
        let result = try CLIRunner.run(["certificate", "verify", Self.path(fact.file), "--roots", Self.path("ca.pem"), "--allow-sha1"])
        #expect(result.status == (fact.opensslVerifies ? 0 : 1), "\(result.stdout)\(result.stderr)")
    }
}
