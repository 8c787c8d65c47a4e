import ASN1Kit
import AsymmetricKeys
import CofferTestSupport
import Foundation
import Testing
import KeyCodec
import X509Kit

/// Every certificate of Fixtures/x509 (made by `openssl ca`) through the library, against what
/// openssl reported about it (Fixtures/x509/facts.json).
@Suite("X.509 certificates against openssl's facts")
struct X509FixtureTests {
    typealias Fact = CertificateFact

    static func bytes(_ file: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Fact.directory.appendingPathComponent(file)))
    }

    /// The certificate of a fixture file, PEM or DER, through detection.
    static func certificate(_ file: String) throws -> Certificate {
        let decoded = try KeyDecoder.decode(try bytes(file), source: file, passphrase: nil)
        #expect(decoded.format == .x509Certificate)
        return try #require(decoded.certificate)
    }

    @Test func factsArePresent() throws {
        #expect(try Fact.certificates.count >= 12)
        #expect(try Fact.requests.count >= 9)
    }

    @Test("each certificate reads as openssl reported", arguments: try Fact.certificates)
    func certificate(_ fact: Fact) throws {
        let certificate = try Self.certificate(fact.file)
        #expect(certificate.subject.rfc4514String == fact.subject)
        #expect(certificate.issuer.rfc4514String == fact.issuer)
        #expect(certificate.serial == fact.serial)
        #expect(certificate.version == fact.version)
        #expect(certificate.notBefore.description == fact.notBefore)
        #expect(certificate.notAfter.description == fact.notAfter)
        #expect(certificate.certificateSHA256 == fact.certificateSHA256)
        #expect(certificate.signatureAlgorithm.name == fact.signatureAlgorithm)
        #expect(Hex.encode(certificate.subjectPublicKeyInfo) == fact.publicKey)
        let facts = fact.extensions ?? [:]
        let extensions = certificate.extensions
        #expect(extensions.subjectAltNameStrings == Fact.subjectAltNames(facts["subjectAltName"]))
        #expect(extensions.keyUsage?.names == Fact.keyUsage(facts["keyUsage"]))
        #expect(extensions.extendedKeyUsageNames == Fact.extendedKeyUsage(facts["extendedKeyUsage"]))
        let constraints = Fact.basicConstraints(facts["basicConstraints"])
        #expect(extensions.basicConstraints?.isCA == constraints?.ca)
        #expect(extensions.basicConstraints?.pathLength == constraints?.pathLength)
        for (name, ext) in facts {
            let oid: ASN1ObjectIdentifier = switch name {
            case "subjectAltName": "2.5.29.17"
            case "keyUsage": "2.5.29.15"
            case "extendedKeyUsage": "2.5.29.37"
            default: "2.5.29.19"
            }
            #expect(extensions.all.first { $0.oid == oid }?.isCritical == ext.critical, "\(name)")
        }
        // The extension list, in order; openssl names the ones it does not know by dotted OID.
        let listed = fact.allExtensions ?? []
        #expect(extensions.all.map(\.name) == listed.map(\.name))
        #expect(extensions.all.map(\.isCritical) == listed.map(\.critical))
        #expect(extensions.unknown.map(\.oid.dotted) == listed.map(\.name).filter { $0.first?.isNumber == true })
    }

    @Test("the certificate's key is the SubjectPublicKeyInfo openssl printed", arguments: try Fact.certificates)
    func publicKey(_ fact: Fact) throws {
        let certificate = try Self.certificate(fact.file)
        let hex = try #require(fact.publicKey)
        let spki = try SubjectPublicKeyInfo.decode(try #require(Hex.decode(hex))[...])
        #expect(certificate.publicKey == spki)
    }

    @Test("validity at fixed instants: before, at both ends, inside, after", arguments: try Fact.certificates)
    func validity(_ fact: Fact) throws {
        let certificate = try Self.certificate(fact.file)
        let start = Fact.seconds(try #require(fact.notBefore))
        let end = Fact.seconds(try #require(fact.notAfter))
        #expect(certificate.notBefore.secondsSince1970 == start)
        #expect(certificate.notAfter.secondsSince1970 == end)
        #expect(certificate.validity(at: start - 1) == .notYetValid)
        #expect(certificate.validity(at: start) == .valid)
        #expect(certificate.validity(at: (start + end) / 2) == .valid)
        #expect(certificate.validity(at: end) == .valid)
        #expect(certificate.validity(at: end + 1) == .expired)
    }

    @Test func validityOfTheDatedFixtures() throws {
        let instant = Fact.seconds("2030-06-15T12:00:00Z")
        #expect(try Self.certificate("leaf-rsa.pem").isValid(at: instant))
        #expect(try Self.certificate("expired.pem").validity(at: instant) == .expired)
        #expect(try Self.certificate("not-yet-valid.pem").validity(at: instant) == .notYetValid)
        // GeneralizedTime after 2049 and the leap day.
        #expect(try Self.certificate("leaf-ed448.pem").notAfter.description == "2099-12-31T23:59:59Z")
        #expect(try Self.certificate("leaf-ed25519.der").notBefore.description == "2024-02-29T12:00:00Z")
    }

    @Test("each certificate of the chain is signed by the next one's key")
    func chainSignatures() throws {
        let decoded = try KeyDecoder.decodeAll(try Self.bytes("chain.pem"), source: "chain", passphrase: nil)
        let chain = decoded.compactMap(\.certificate)
        #expect(chain.count == 3)
        #expect(try chain.map(\.subject.rfc4514String) == ["leaf-rsa.pem", "intermediate.pem", "root.pem"].map { try Fact.named($0)?.subject })
        #expect(try chain[0].isSigned(by: chain[1].publicKey))
        #expect(try chain[1].isSigned(by: chain[2].publicKey))
        #expect(try chain[2].isSigned(by: chain[2].publicKey))
        // Another key of the right type does not verify; a key of another type is an error.
        #expect(try Self.certificate("expired.pem").isSigned(by: chain[0].publicKey) == false)
        #expect(throws: KeyError.self) { try chain[0].isSigned(by: chain[2].publicKey) }
        // RSA-PSS (root → Ed25519 leaf), SHA-1 and SHA-512 RSA, ECDSA P-256 with SHA-384, Ed448.
        let root = chain[2].publicKey
        #expect(try Self.certificate("leaf-ed25519.pem").isSigned(by: root))
        #expect(try Self.certificate("expired.pem").isSigned(by: root))
        #expect(try Self.certificate("not-yet-valid.pem").isSigned(by: root))
        #expect(try Self.certificate("leaf-ec384.pem").isSigned(by: chain[1].publicKey))
        let ed448 = try Self.certificate("leaf-ed448.pem")
        #expect(try ed448.isSigned(by: ed448.publicKey))
    }

    @Test func parseAndDetectionAgree() throws {
        let der = try Self.bytes("root.der")
        let parsed = try Certificate(derEncoded: der[...])
        #expect(try parsed.certificateSHA256 == Fact.named("root.der")?.certificateSHA256)
        #expect(Array(try CertificateDER.subjectPublicKeyInfo(in: der[...])) == Array(parsed.subjectPublicKeyInfo))
    }
}
