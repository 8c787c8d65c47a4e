import ASN1Kit
import CofferTestSupport
import Foundation
import Testing

@testable import AsymmetricKeys
import KeyCodec
import X509Kit

/// Every extension of certificates openssl made (and a few Mozilla CA certificates) against
/// `openssl x509 -text`: before, only SAN, key usage, EKU and basic constraints were decoded and
/// the rest were skipped or listed as unknown.
@Suite("X.509 extensions against openssl x509 -text")
struct X509ExtensionsRealWorldTests {
    struct Certificate: Decodable, Sendable, CustomTestStringConvertible {
        let file: String
        let spkiSHA256: String
        let extensions: [Extension]
        var testDescription: String { file }
    }

    struct Extension: Decodable, Sendable {
        let name: String
        let critical: Bool
        let lines: [String]
    }

    static let subject = "x509-extensions"
    static var certificates: [Certificate] { get throws { try FixtureFacts.load([Certificate].self, in: RealWorldFixtures.directory(subject)) } }

    /// openssl's key usage and EKU names, and Coffer's.
    static let usageNames: [String: String] = [
        "Digital Signature": "digitalSignature", "Non Repudiation": "nonRepudiation", "Key Encipherment": "keyEncipherment",
        "Data Encipherment": "dataEncipherment", "Key Agreement": "keyAgreement", "Certificate Sign": "keyCertSign",
        "CRL Sign": "cRLSign", "Encipher Only": "encipherOnly", "Decipher Only": "decipherOnly",
        "TLS Web Server Authentication": "serverAuth", "TLS Web Client Authentication": "clientAuth",
        "Code Signing": "codeSigning", "E-mail Protection": "emailProtection", "Time Stamping": "timeStamping",
        "OCSP Signing": "OCSPSigning",
    ]

    /// A directory name prints differently (openssl `/CN=…` or `CN = …`, Coffer RFC 4514): only its kind is compared.
    static func normalized(_ line: String) -> String {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("DirName:") { return "DirName:" }
        if trimmed.hasPrefix("keyid:") { return String(trimmed.dropFirst("keyid:".count)) }
        return trimmed
    }

    @Test("the fixtures cover every extension the issue lists, critical and not")
    func coverage() throws {
        let certificates = try FixtureFacts.load([Certificate].self, in: RealWorldFixtures.directory(Self.subject))
        let names = Set(certificates.flatMap { $0.extensions.map(\.name) })
        for name in ["X509v3 Basic Constraints", "X509v3 Key Usage", "X509v3 Extended Key Usage", "X509v3 Subject Alternative Name",
                     "X509v3 Name Constraints", "X509v3 Certificate Policies", "Authority Information Access",
                     "X509v3 CRL Distribution Points", "X509v3 Subject Key Identifier", "X509v3 Authority Key Identifier"] {
            #expect(names.contains(name), "\(name)")
        }
        #expect(certificates.contains { $0.file.hasPrefix("mozilla-") })
        #expect(certificates.flatMap(\.extensions).contains { $0.critical && $0.name.first?.isNumber == true })
    }

    @Test("each extension: name, critical and value as openssl prints them", arguments: try certificates)
    func extensions(fact: Certificate) throws {
        let pem = try RealWorldFixtures.bytes(Self.subject, fact.file)
        let decoded = try KeyDecoder.decode(pem, source: fact.file, passphrase: nil)
        let certificate = try #require(decoded.certificate)
        #expect(decoded.warnings.isEmpty)
        #expect(certificate.spkiSHA256 == fact.spkiSHA256)
        let shown = certificate.extensions.shown
        #expect(shown.map(\.name) == fact.extensions.map(\.name))
        for (mine, theirs) in zip(shown, fact.extensions) {
            #expect(mine.isCritical == theirs.critical, "\(theirs.name)")
            if mine.name.first?.isNumber == true {
                // Unknown: shown by OID and length, not decoded.
                #expect(!mine.isDecoded, "\(theirs.name)")
                #expect(mine.lines == ["\(mine.length) bytes, not decoded"])
                continue
            }
            #expect(mine.isDecoded, "\(theirs.name)")
            var expected = theirs.lines
            switch theirs.name {
            case "X509v3 Key Usage", "X509v3 Extended Key Usage":
                expected = theirs.lines.map { line in
                    line.components(separatedBy: ", ").map { Self.usageNames[$0] ?? $0 }.joined(separator: ", ")
                }
            case "X509v3 Subject Alternative Name":
                expected = theirs.lines.flatMap { $0.components(separatedBy: ", ") }.map(Self.normalized).sorted()
                let names = mine.lines.flatMap { $0.components(separatedBy: ", ") }.map(Self.normalized).sorted()
                #expect(names == expected, "\(theirs.name)")
                continue
            default:
                break
            }
            #expect(mine.lines.map(Self.normalized) == expected.map(Self.normalized), "\(theirs.name)")
        }
    }

    @Test("the decoded values of openssl's CA and leaf")
    func decodedValues() throws {
        let ca = try #require(try KeyDecoder.decode(try RealWorldFixtures.bytes(Self.subject, "ca.pem"), source: "ca.pem", passphrase: nil).certificate)
        let constraints = try #require(ca.extensions.nameConstraints)
        #expect(constraints.permitted.contains(.dns("example.com")))
        #expect(constraints.permitted.contains(.ipAddress([10, 0, 0, 0, 255, 0, 0, 0])))
        #expect(constraints.excluded.contains(.dns("bad.example.com")))
        let policies = try #require(ca.extensions.certificatePolicies)
        #expect(policies.map(\.oid.dotted) == ["2.23.140.1.2.1", "1.3.6.1.4.1.99999.1"])
        #expect(policies[1].qualifiers.contains(.cps("http://cps.example.com/cps")))
        #expect(policies[1].qualifiers.contains(.userNotice(organization: "Coffer Org", noticeNumbers: [1, 2], explicitText: "Coffer test policy")))
        let authority = try #require(ca.extensions.authorityKeyIdentifier)
        #expect(authority.serialNumber == [0x12, 0x34])
        #expect(authority.keyIdentifier == ca.extensions.subjectKeyIdentifier)
        let leaf = try #require(try KeyDecoder.decode(try RealWorldFixtures.bytes(Self.subject, "leaf.pem"), source: "leaf.pem", passphrase: nil).certificate)
        #expect(leaf.extensions.authorityInfoAccess?.map(\.description) == ["OCSP - URI:http://ocsp.example.com/", "CA Issuers - URI:http://ca.example.com/ca.crt"])
        #expect(leaf.extensions.crlDistributionPoints?.flatMap(\.fullName) == [.uri("http://crl.example.com/ca.crl"), .uri("ldap://ldap.example.com/cn=ca")])
        #expect(leaf.extensions.authorityKeyIdentifier?.keyIdentifier == ca.extensions.subjectKeyIdentifier)
        #expect(leaf.extensions.unknownCritical.map(\.oid.dotted) == ["1.2.3.4.5.6.8"])
    }
}

/// Certificates with explicit DEFAULTs and BER booleans (hand-built DER that openssl signed and
/// reads): before, `cA FALSE`, `critical FALSE` or TRUE as 0x01 made Coffer refuse the whole certificate.
@Suite("X.509: explicit DEFAULTs openssl accepts")
struct LenientX509Tests {
    struct Fact: Decodable, Sendable, CustomTestStringConvertible {
        let name: String
        let version: Int
        let serial: String
        let spkiSHA256: String
        let showsCAFalse: Bool
        let showsCATrue: Bool
        let basicConstraintsCritical: Bool
        let hasKeyUsage: Bool
        let keyUsageCritical: Bool
        var testDescription: String { name }
    }

    static let subject = "lenient-x509"
    static var facts: [Fact] { get throws { try FixtureFacts.load([Fact].self, in: RealWorldFixtures.directory(subject)) } }

    @Test("each certificate reads with a warning per deviation, as openssl reads it", arguments: try facts)
    func readsWithWarnings(fact: Fact) throws {
        for file in ["\(fact.name).pem", "\(fact.name).der"] {
            let decoded = try KeyDecoder.decode(try RealWorldFixtures.bytes(Self.subject, file), source: file, passphrase: nil)
            let certificate = try #require(decoded.certificate)
            #expect(certificate.version == fact.version, "\(file)")
            #expect(certificate.serial.uppercased() == fact.serial, "\(file)")
            #expect(certificate.spkiSHA256 == fact.spkiSHA256, "\(file)")
            #expect(try decoded.key.publicKey().spkiSHA256 == fact.spkiSHA256, "\(file)")
            #expect((certificate.extensions.basicConstraints?.isCA == false) == fact.showsCAFalse, "\(file)")
            #expect((certificate.extensions.basicConstraints?.isCA == true) == fact.showsCATrue, "\(file)")
            let basicConstraints = certificate.extensions.all.first { $0.oid.dotted == "2.5.29.19" }
            #expect((basicConstraints?.isCritical == true) == fact.basicConstraintsCritical, "\(file)")
            #expect((certificate.extensions.keyUsage != nil) == fact.hasKeyUsage, "\(file)")
            // boolean-ber-true writes TRUE as 0x01 twice: the critical flag and cA.
            let berBooleans = fact.name == "boolean-ber-true" ? 2 : 0
            let expectedWarnings = (fact.showsCAFalse ? 1 : 0) + (fact.hasKeyUsage && !fact.keyUsageCritical ? 1 : 0) + (fact.version == 1 ? 1 : 0) + berBooleans
            #expect(decoded.warnings.count == expectedWarnings, "\(file): \(decoded.warnings)")
            #expect(decoded.warnings == certificate.warnings)
            #expect(decoded.warnings.allSatisfy { $0.contains("DER forbids") })
        }
    }

    @Test("a request with critical FALSE and cA FALSE reads with two warnings, its signature verifying as openssl says")
    func request() throws {
        struct RequestFact: Decodable { let file: String; let signatureVerifies: Bool; let showsCAFalse: Bool }
        let data = try Data(contentsOf: RealWorldFixtures.directory(Self.subject).appendingPathComponent("request-facts.json"))
        let fact = try JSONDecoder().decode(RequestFact.self, from: data)
        let der = try RealWorldFixtures.bytes(Self.subject, fact.file)
        let decoded = try KeyDecoder.decode(der, source: fact.file, passphrase: nil)
        let request = try #require(decoded.request)
        #expect(request.signatureValid == fact.signatureVerifies)
        #expect((request.requestedExtensions.basicConstraints?.isCA == false) == fact.showsCAFalse)
        #expect(decoded.warnings.count == 2)
        #expect(decoded.warnings == request.warnings)
        #expect(throws: KeyError.self) { try CertificationRequest(derEncoded: der[...], strict: true) }
    }

    @Test("a strict reading refuses each", arguments: try facts)
    func strictRefuses(fact: Fact) throws {
        let der = try RealWorldFixtures.bytes(Self.subject, "\(fact.name).der")
        let error = #expect(throws: KeyError.self) { try Certificate(derEncoded: der[...], strict: true) }
        #expect(error?.code == .malformed)
        #expect(error?.offset != nil)
    }
}
