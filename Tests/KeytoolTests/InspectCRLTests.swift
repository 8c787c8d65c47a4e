import CofferTestSupport
import Foundation
import Testing

/// `keytool inspect` of CRLs (Fixtures/realworld/crls, made by tools/realworld/crls.sh), against
/// what `openssl crl -text` said of each (facts.json "crls").
@Suite("keytool inspect of CRLs")
struct InspectCRLTests {
    struct Facts: Decodable {
        struct CRL: Decodable {
            struct Entry: Decodable {
                var serial: String
                var reason: String?
                var invalidityDate: String?
            }
            var issuer: String
            var crlNumber: String?
            var baseCRLNumber: String?
            var revoked: [Entry]
        }
        var crls: [String: CRL]
    }

    static let directory = RealWorldFixtures.directory("crls")
    static func file(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func facts() throws -> Facts {
        try FixtureFacts.load(Facts.self, in: Self.directory, count: \.crls.count)
    }

    func json(_ result: CLIResult) throws -> [[String: Any]] {
        try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// openssl's reason text (`Key Compromise`) as RFC 5280's name (`keyCompromise`), compared
    /// without case and spaces.
    static func sameReason(_ openssl: String?, _ coffer: String?) -> Bool {
        openssl?.replacingOccurrences(of: " ", with: "").lowercased() == coffer?.lowercased()
    }

    @Test("every CRL, PEM and DER, shows openssl's issuer, CRL number, delta base and entries")
    func everyCRL() throws {
        let facts = try facts()
        for (name, fact) in facts.crls {
            for suffix in ["pem", "der"] {
                let result = try CLIRunner.run(["inspect", Self.file("\(name).\(suffix)"), "--json"])
                #expect(result.status == 0, "\(name).\(suffix): \(result.stderr)")
                let object = try #require(try json(result).first)
                #expect(object["type"] as? String == "X.509 CRL")
                #expect(object["issuer"] as? String == fact.issuer, "\(name)")
                #expect(object["crlNumber"] as? String == fact.crlNumber, "\(name)")
                #expect(object["baseCRLNumber"] as? String == fact.baseCRLNumber, "\(name)")
                #expect(object["revokedCount"] as? Int == fact.revoked.count, "\(name)")
                let entries = object["revoked"] as? [[String: Any]] ?? []
                #expect(entries.map { $0["serial"] as? String ?? "" } == fact.revoked.map(\.serial), "\(name)")
                for (entry, expected) in zip(entries, fact.revoked) {
                    #expect(expected.reason == nil ? entry["reason"] == nil : Self.sameReason(expected.reason, entry["reason"] as? String),
                            "\(name) \(expected.serial): \(String(describing: entry["reason"]))")
                    #expect(entry["invalidityDate"] as? String == expected.invalidityDate, "\(name) \(expected.serial)")
                }
            }
        }
    }

    @Test("the text names the issuer, the dates and currency, the extensions and each entry")
    func text() throws {
        let result = try CLIRunner.run(["inspect", Self.file("crl-int.der")])
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdout
        #expect(text.contains("type:             X.509 CRL"))
        #expect(text.contains("issuer:           CN=Coffer CRL Test Intermediate"))
        #expect(text.contains("this update:      2025-06-01T00:00:00Z"))
        #expect(text.contains("next update:      2045-01-01T00:00:00Z (current)"))
        #expect(text.contains("CRL number:       3"))
        #expect(text.contains("extension:        X509v3 Authority Key Identifier"))
        #expect(text.contains("revoked:          2 certificates"))
        #expect(text.contains("serial 0101: revoked 2025-03-01T00:00:00Z, reason keyCompromise, invalid since 2025-02-15T00:00:00Z"))
        #expect(text.contains("serial 0104: revoked 2025-04-01T00:00:00Z, reason certificateHold"))
        let delta = try CLIRunner.run(["inspect", Self.file("crl-int-delta.pem")]).stdout
        #expect(delta.contains("delta CRL:        yes, of base CRL number 32"))
        #expect(delta.contains("X509v3 Delta CRL Indicator: critical"))
        // RFC 4514 writes the appended RDN first.
        let partition = try CLIRunner.run(["inspect", Self.file("crl-int-partition1.pem")]).stdout
        #expect(partition.contains("Relative Name: CN=Partition 1 (full name CN=Partition 1,CN=Coffer CRL Test Intermediate)"))
        let reasons = try CLIRunner.run(["inspect", Self.file("crl-int-reasons-key.pem")]).stdout
        #expect(reasons.contains("Only Some Reasons: keyCompromise, cACompromise"))
        let indirect = try CLIRunner.run(["inspect", Self.file("crl-indirect.pem")]).stdout
        #expect(indirect.contains("Indirect CRL"))
        #expect(indirect.contains("serial 0102: revoked 2025-03-01T00:00:00Z, reason cACompromise, certificate issuer DirName:CN=Coffer CRL Test Intermediate"))
        // Carried forward from the entry before (RFC 5280 §5.3.3).
        #expect(indirect.contains("serial 0777: revoked 2025-03-01T00:00:00Z, certificate issuer DirName:CN=Coffer CRL Test Intermediate"))
    }

    @Test("--ca says whether the CRL's signature verifies with the CA certificate; exit 1 when not")
    func ca() throws {
        let signed = try CLIRunner.run(["inspect", Self.file("crl-int.pem"), "--ca", Self.file("int.pem")])
        #expect(signed.status == 0, "\(signed.stderr)")
        #expect(signed.stdout.contains("signed by CA:     yes, verifies with CN=Coffer CRL Test Intermediate"))
        let other = try CLIRunner.run(["inspect", Self.file("crl-int.pem"), "--ca", Self.file("root.pem"), "--json"])
        #expect(other.status == 1)
        #expect(try json(other).first?["signatureValid"] as? Bool == false)
        #expect(other.stderr.contains("not signed by the CA"))
    }

    @Test("a bundle of a certificate and CRLs shows each")
    func mixedBundle() throws {
        let result = try CLIRunner.run(["inspect", Self.file("bundle-mixed.pem"), "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try json(result)
        #expect(objects.count == 3, "\(result.stdout)")
        #expect(objects.filter { $0["type"] as? String == "X.509 CRL" }.compactMap { $0["issuer"] as? String }
            == ["CN=Coffer CRL Test Intermediate", "CN=Coffer CRL Test Root"])
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test("deviations are warnings; --strict makes them exit 1")
    func strict() throws {
        let plain = try CLIRunner.run(["inspect", Self.file("crl-int-unknown-critical.pem")])
        #expect(plain.status == 0)
        #expect(plain.stdout.contains("warning:          the CRL has the unknown critical extension 1.3.6.1.4.1.55555.1"))
        #expect(plain.stdout.contains("1.3.6.1.4.1.55555.1 (unknown, 2 bytes): critical"))
        let strict = try CLIRunner.run(["inspect", Self.file("crl-int-unknown-critical.pem"), "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("unknown critical extension"))
        let entry = try CLIRunner.run(["inspect", Self.file("crl-int-unknown-entry-extension.der"), "--json"])
        let warnings = try json(entry).first?["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.contains("serial 0999") && $0.contains("1.3.6.1.4.1.55555.2") }, "\(warnings)")
        #expect(try CLIRunner.run(["inspect", Self.file("crl-int.pem"), "--strict"]).status == 0)
    }

    @Test("a malformed DER CRL is reported as a CRL with the offset, not as a malformed certificate")
    func malformed() throws {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.file("crl-int.der"))))
        // Cut the signature short: the outer lengths no longer match.
        bytes.removeLast(10)
        let scratch = try TestScratch.directory("inspect-crl")
        let path = scratch.appendingPathComponent("cut.crl").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try CLIRunner.run(["inspect", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("offset"), "\(result.stderr)")
        #expect(!result.stderr.contains("certificate is malformed"), "\(result.stderr)")
    }
}
