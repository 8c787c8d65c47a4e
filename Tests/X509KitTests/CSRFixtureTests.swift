import ASN1Kit
import AsymmetricKeys
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing
import KeyCodec
import X509Kit

/// Every PKCS#10 request of Fixtures/x509 (made by `openssl req`) through the library, against
/// what openssl reported (subject, requested extensions, signature algorithm, `req -verify`).
@Suite("PKCS#10 requests against openssl's facts")
struct CSRFixtureTests {
    typealias Fact = CertificateFact

    static func request(_ file: String) throws -> (DecodedKey, CertificationRequest) {
        let bytes = Array(try Data(contentsOf: Fact.directory.appendingPathComponent(file)))
        let decoded = try KeyDecoder.decode(bytes, source: file, passphrase: nil)
        return (decoded, try #require(decoded.request))
    }

    @Test("each request reads as openssl reported", arguments: try Fact.requests)
    func request(_ fact: Fact) throws {
        let (decoded, request) = try Self.request(fact.file)
        #expect(decoded.format == .pkcs10Request)
        #expect(decoded.encoding.rawValue == fact.encoding)
        #expect(decoded.certificate == nil)
        #expect(request.subject.rfc4514String == fact.subject)
        #expect(request.signatureAlgorithm.name == fact.signatureAlgorithm)
        #expect(request.signatureValid == fact.signatureValid)
        #expect(Hex.encode(request.subjectPublicKeyInfo) == fact.publicKey)
        #expect(try decoded.key.publicKey() == request.publicKey)
        let facts = fact.requestedExtensions ?? [:]
        let extensions = request.requestedExtensions
        #expect(extensions.subjectAltNameStrings == Fact.subjectAltNames(facts["subjectAltName"]))
        #expect(extensions.keyUsage?.names == Fact.keyUsage(facts["keyUsage"]))
        #expect(extensions.extendedKeyUsageNames == Fact.extendedKeyUsage(facts["extendedKeyUsage"]))
        let constraints = Fact.basicConstraints(facts["basicConstraints"])
        #expect(extensions.basicConstraints?.isCA == constraints?.ca)
        #expect(extensions.basicConstraints?.pathLength == constraints?.pathLength)
        #expect(extensions.all.count == facts.count)
    }

    @Test func brokenSignatureIsReportedNotThrown() throws {
        let (_, broken) = try Self.request("csr-broken-signature.pem")
        #expect(broken.signatureValid == false)
        #expect(try broken.verifySignature() == false)
        let (_, good) = try Self.request("csr-rsa.pem")
        #expect(good.signatureValid)
        #expect(broken.subject == good.subject)
    }

    @Test func everySignatureSchemeVerifies() throws {
        let expected: [String: SignatureAlgorithm.Scheme] = [
            "csr-rsa.pem": .rsaPKCS1(.sha256), "csr-rsa-sha1.pem": .rsaPKCS1(.sha1), "csr-rsa-sha224.pem": .rsaPKCS1(.sha224),
            "csr-rsa-pss.pem": .rsaPSS(.sha384, mgf1Digest: .sha384, saltLength: 48),
            "csr-ec.pem": .ecdsa(.sha256), "csr-ec384.pem": .ecdsa(.sha512), "csr-ed25519.pem": .ed25519, "csr-ed448.pem": .ed448,
        ]
        for (file, scheme) in expected {
            let (_, request) = try Self.request(file)
            #expect(try request.signatureAlgorithm.scheme() == scheme, "\(file)")
            #expect(try request.verifySignature(), "\(file)")
        }
    }

    @Test func aSignatureOfAnotherKeyTypeIsAnError() throws {
        let (_, rsa) = try Self.request("csr-rsa.pem")
        let (_, ec) = try Self.request("csr-ec.pem")
        let error = try #require(throws: KeyError.self) {
            try rsa.signatureAlgorithm.verify(rsa.signature, over: Array(rsa.certificationRequestInfo), with: ec.publicKey)
        }
        #expect(error.code == .invalidArgument)
    }

    @Test func labelsAndRawDER() throws {
        let (fromNewLabel, request) = try Self.request("csr-ed25519-new-label.pem")
        #expect(fromNewLabel.encoding == .pem)
        #expect(request.signatureValid)
        let (fromDER, _) = try Self.request("csr-ec.der")
        #expect(fromDER.encoding == .der)
        // A request's DER under a CERTIFICATE label is a contradiction.
        let der = Array(try Data(contentsOf: Fact.directory.appendingPathComponent("csr-ec.der")))
        let pem = Array(PEMBlock(label: "CERTIFICATE", bytes: der).pemText.utf8)
        let error = try #require(throws: KeyError.self) { try KeyDecoder.decode(pem, source: "x", passphrase: nil) }
        #expect(error.code == .labelMismatch)
    }
}
