import CofferTestSupport
import Foundation
import Testing

/// `keytool inspect` over the certificates and requests of Fixtures/x509, against what openssl
/// reported (Fixtures/x509/facts.json).
@Suite("keytool inspect: certificates and requests")
struct CertificateCommandTests {
    typealias Fact = CertificateFact

    static func inspectJSON(_ file: String) throws -> [[String: Any]] {
        let result = try CLIRunner.run(["inspect", "--json", CLIRunner.fixture("x509/\(file)")])
        #expect(result.status == 0, "\(result.stderr)")
        return try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// The SAN/KU/EKU/basic constraints fields against openssl's extension texts.
    static func expectExtensions(_ object: [String: Any], _ facts: [String: Fact.Extension], _ file: String) {
        #expect(object["subjectAltNames"] as? [String] == Fact.subjectAltNames(facts["subjectAltName"]), "\(file)")
        #expect(object["keyUsage"] as? [String] == Fact.keyUsage(facts["keyUsage"]), "\(file)")
        #expect(object["extendedKeyUsage"] as? [String] == Fact.extendedKeyUsage(facts["extendedKeyUsage"]), "\(file)")
        let constraints = object["basicConstraints"] as? [String: Any]
        let expected = Fact.basicConstraints(facts["basicConstraints"])
        #expect((constraints == nil) == (expected == nil), "\(file)")
        if let constraints, let expected {
            #expect(constraints["ca"] as? Bool == expected.ca)
            #expect(constraints["pathLength"] as? Int == expected.pathLength)
        }
    }

    @Test("inspect --json reports what openssl reported", arguments: try Fact.certificates)
    func certificate(_ fact: Fact) throws {
        let objects = try Self.inspectJSON(fact.file)
        #expect(objects.count == 1)
        let object = try #require(objects.first)
        #expect(object["format"] as? String == "x509-certificate")
        #expect(object["encoding"] as? String == fact.encoding)
        #expect(object["subject"] as? String == fact.subject)
        #expect(object["issuer"] as? String == fact.issuer)
        #expect(object["serial"] as? String == fact.serial)
        #expect(object["notBefore"] as? String == fact.notBefore)
        #expect(object["notAfter"] as? String == fact.notAfter)
        #expect(object["signatureAlgorithm"] as? String == fact.signatureAlgorithm)
        #expect(object["certificateSHA256"] as? String == fact.certificateSHA256)
        // The fixtures' dates are decades from today.
        #expect(object["validNow"] as? Bool == !["expired.pem", "not-yet-valid.pem"].contains(fact.file))
        Self.expectExtensions(object, fact.extensions ?? [:], fact.file)
        #expect(object["private"] as? Bool == false)
        #expect(object["algorithm"] != nil && object["fingerprintSHA256"] != nil)
    }

    @Test("inspect --json of a request reports what openssl reported", arguments: try Fact.requests)
    func request(_ fact: Fact) throws {
        let object = try #require(try Self.inspectJSON(fact.file).first)
        #expect(object["format"] as? String == "pkcs10-csr")
        #expect(object["subject"] as? String == fact.subject)
        #expect(object["signatureAlgorithm"] as? String == fact.signatureAlgorithm)
        #expect(object["signatureValid"] as? Bool == fact.signatureValid)
        let requested = try #require(object["requestedExtensions"] as? [String: Any])
        Self.expectExtensions(requested, fact.requestedExtensions ?? [:], fact.file)
        #expect(object["issuer"] == nil && object["serial"] == nil)
    }

    @Test func theBrokenRequestSaysSo() throws {
        let object = try #require(try Self.inspectJSON("csr-broken-signature.pem").first)
        #expect(object["signatureValid"] as? Bool == false)
        let text = try CLIRunner.run(["inspect", CLIRunner.fixture("x509/csr-broken-signature.pem")])
        #expect(text.status == 0)
        #expect(text.stdout.contains("DOES NOT VERIFY"))
    }

    @Test func theChainPrintsEveryCertificateInFull() throws {
        let objects = try Self.inspectJSON("chain.pem")
        let blocks = try #require(try Fact.named("chain.pem")?.blocks)
        #expect(try objects.map { $0["subject"] as? String } == blocks.map { try Fact.named($0)?.subject })
        #expect(try objects.map { $0["certificateSHA256"] as? String } == blocks.map { try Fact.named($0)?.certificateSHA256 })
        let text = try CLIRunner.run(["inspect", CLIRunner.fixture("x509/chain.pem")])
        #expect(text.stdout.contains("[key 3 of 3]"))
        #expect(text.stdout.components(separatedBy: "issuer:").count == 4)
    }

    @Test func textShowsValidity() throws {
        let valid = try CLIRunner.run(["inspect", CLIRunner.fixture("x509/leaf-rsa.pem")])
        #expect(valid.stdout.contains("2025-01-01T00:00:00Z to 2044-12-31T00:00:00Z (valid now)"))
        #expect(valid.stdout.contains("DNS:leaf.coffer.example, DNS:*.coffer.example, IP Address:192.0.2.10"))
        let expired = try CLIRunner.run(["inspect", CLIRunner.fixture("x509/expired.pem")])
        #expect(expired.stdout.contains("(expired "))
        let future = try CLIRunner.run(["inspect", CLIRunner.fixture("x509/not-yet-valid.pem")])
        #expect(future.stdout.contains("(not yet valid)"))
        let unknown = try CLIRunner.run(["inspect", "--json", CLIRunner.fixture("x509/leaf-ed448.pem")])
        #expect(unknown.stdout.contains("\"criticalUnknownExtensions\":[\"1.3.6.1.4.1.55555.5\"]"))
    }

    @Test func otherCommandsTakeTheCertifiedKey() throws {
        let fingerprint = try CLIRunner.run(["fingerprint", CLIRunner.fixture("x509/leaf-ec384.der")])
        #expect(fingerprint.status == 0, "\(fingerprint.stderr)")
        let convert = try CLIRunner.run(["convert", CLIRunner.fixture("x509/csr-ed25519.pem"), "--to", "spki"])
        #expect(convert.status == 0, "\(convert.stderr)")
        #expect(convert.stdout.contains("BEGIN PUBLIC KEY"))
    }

    @Test func aTruncatedCertificateNamesTheOffset() throws {
        let der = Array(try Data(contentsOf: Fact.directory.appendingPathComponent("root.der")))
        let result = try CLIRunner.run(["inspect", "-"], stdin: Array(der.prefix(300)))
        #expect(result.status == 1)
        #expect(result.stderr.contains("keytool: error:"))
        #expect(result.stderr.contains("offset"))
    }
}
