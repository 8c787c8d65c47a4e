import CofferTestSupport
import Foundation
import Testing

/// Show, then judge: certificates openssl shows although no verifier accepts them, from pyca's
/// cryptography_vectors (copied by tools/pyca-vectors, facts from `openssl x509`). `inspect`
/// shows them with a warning per defect, `--strict` refuses them, verification refuses them.
@Suite("keytool inspect shows what openssl shows; verification stays strict")
struct ShownCertificateCommandTests {
    static let subject = "pyca-x509"

    static func file(_ name: String) -> String {
        RealWorldFixtures.directory(subject).appendingPathComponent(name).path
    }

    static func facts(_ name: String) throws -> [String: String] {
        let data = try Data(contentsOf: RealWorldFixtures.directory(subject).appendingPathComponent("facts.json"))
        let all = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: String]])
        return try #require(all[name], "no openssl facts for \(name)")
    }

    /// The invalid certificates and a word of the defect each has.
    static let invalid: [(String, String)] = [
        ("empty-eku.pem", "no purposes"),
        ("invalid_version.pem", "the version at offset 8 is 7"),
        ("malformed-san.pem", "Subject Alternative Name"),
        ("mismatch_inner_outer_sig_algorithm.der", "differs from the TBSCertificate's signature field"),
        ("rsa_pss_cert_invalid_mgf.der", "differs from the TBSCertificate's signature field"),
        ("two_basic_constraints.pem", "appears twice"),
        ("utf8-dnsname.pem", "non-ASCII"),
        ("v1_cert.pem", "differs from the TBSCertificate's signature field"),
    ]

    @Test("inspect shows subject, issuer, serial and digest as openssl x509 does, with the defect as a warning; --strict exit 1",
          arguments: invalid)
    func shownWithWarning(name: String, defect: String) throws {
        let facts = try Self.facts(name)
        let result = try CLIRunner.run(["inspect", "--json", Self.file(name)])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["certificateSHA256"] as? String == facts["sha256"])
        #expect(object["subject"] as? String == facts["subject"])
        #expect(object["issuer"] as? String == facts["issuer"])
        #expect((object["serial"] as? String)?.uppercased() == facts["serial"].map { $0.count % 2 == 1 ? "0" + $0 : $0 })
        let warnings = try #require(object["warnings"] as? [String])
        #expect(warnings.contains { $0.contains(defect) && $0.contains("the certificate is shown, but it is not valid") }, "\(warnings)")

        let strict = try CLIRunner.run(["inspect", "--strict", Self.file(name)])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("refused by --strict"))
    }

    @Test("verification stays strict: the certificate as its own root is not valid", arguments: invalid.map(\.0))
    func verificationRefuses(name: String) throws {
        let path = Self.file(name)
        let result = try CLIRunner.run(["certificate", "verify", path, "--roots", path])
        #expect(result.status != 0, "\(result.stdout)")
    }

    @Test("a key Coffer cannot use: the error names the certificate as openssl shows it and the key's algorithm and OID",
          arguments: [("e-trust.ru.der", "GOST R 34.10-2001 (1.2.643.2.2.19)"),
                      ("unsupported_subject_public_key_info.pem", "1.3.6.1.4.1.8432.1.1.2"),
                      ("ec_no_named_curve.pem", "explicit curve parameters")])
    func unusableKey(name: String, algorithm: String) throws {
        let facts = try Self.facts(name)
        let result = try CLIRunner.run(["inspect", Self.file(name)])
        #expect(result.status == 1)
        #expect(result.stderr.contains("holds a key Coffer cannot use"), "\(result.stderr)")
        #expect(result.stderr.contains(try #require(facts["subject"])), "\(result.stderr)")
        #expect(result.stderr.contains(algorithm), "\(result.stderr)")
    }
}
