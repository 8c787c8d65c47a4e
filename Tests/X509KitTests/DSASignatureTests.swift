import ASN1Kit
import AsymmetricKeys
import CofferTestSupport
import Foundation
import KeyCodec
import Testing
import X509Kit

/// DSA signatures on certificates and certification requests that openssl made
/// (`Fixtures/realworld/dsa/x509`, `tools/realworld/dsa.sh x509`), each checked against what
/// `openssl req -verify` and `openssl verify` said of it (`x509/facts.json`).
@Suite("DSA signatures")
struct DSASignatureTests {
    typealias Fact = DSASignatureFact

    static var facts: [Fact] {
        get throws { try DSASignatureFact.load() }
    }

    private static func der(_ file: String) throws -> ArraySlice<UInt8> {
        let blocks = try PEMParser.blocks(in: try RealWorldFixtures.bytes("dsa", "x509/" + file))
        return try #require(blocks.first).bytes[...]
    }

    @Test("the facts are there: four requests and five certificates")
    func factsLoaded() throws {
        #expect(try Self.facts.filter { $0.kind == "request" }.count == 4)
        #expect(try Self.facts.filter { $0.kind == "certificate" }.count == 5)
    }

    @Test("a DSA-signed request verifies exactly when openssl req -verify says OK",
          arguments: try facts.filter { $0.kind == "request" })
    func request(_ fact: Fact) throws {
        let request = try CertificationRequest(derEncoded: try Self.der(fact.file))
        #expect(request.signatureAlgorithm.name == fact.signatureAlgorithm)
        #expect(request.signatureValid == fact.opensslVerifies)
        #expect(try request.verifySignature() == fact.opensslVerifies)
    }

    @Test("a certificate a DSA CA signed verifies exactly when openssl verify -auth_level 0 says OK",
          arguments: try facts.filter { $0.kind == "certificate" })
    func certificate(_ fact: Fact) throws {
        let ca = try Certificate(derEncoded: try Self.der("ca.pem"))
        let leaf = try Certificate(derEncoded: try Self.der(fact.file))
        #expect(leaf.signatureAlgorithm.name == fact.signatureAlgorithm)
        let options = VerificationOptions(time: leaf.notBefore.secondsSince1970 + 60, acceptsSHA1Signatures: true)
        let result = CertificateVerifier(roots: [ca]).verify(leaf, options: options)
        #expect(result.isValid == fact.opensslVerifies, "\(result.failedPaths.flatMap(\.failures))")
        if !fact.opensslVerifies {
            #expect(result.failedPaths.flatMap(\.failures).map(\.reason).contains(.signatureInvalid))
        }
    }

    @Test("dsaWithSHA1 is refused without acceptsSHA1Signatures, naming SHA-1")
    func sha1NeedsTheOption() throws {
        let ca = try Certificate(derEncoded: try Self.der("ca.pem"))
        let leaf = try Certificate(derEncoded: try Self.der("leaf-sha1.pem"))
        let result = CertificateVerifier(roots: [ca]).verify(leaf, options: VerificationOptions(time: leaf.notBefore.secondsSince1970 + 60))
        #expect(!result.isValid)
        let failure = try #require(result.failedPaths.flatMap(\.failures).first { $0.reason == .unsupportedSignatureAlgorithm })
        #expect(failure.detail.contains("SHA-1"))
    }

    @Test("a DSA key signs nothing: PrivateKey.sign refuses, naming what DSA keys do")
    func signingRefused() throws {
        let all = try KeyDecoder.decodeAll(RealWorldFixtures.bytes("dsa", "dsa1024.pkcs8.pem"), source: "dsa1024.pkcs8.pem", passphrase: nil)
        let key = try #require(all.first?.key.privateKey)
        let error = try #require(throws: KeyError.self) { try key.sign([1, 2, 3], scheme: .dsa(digest: .sha256)) }
        #expect(error.reason.contains("signature verification work"))
    }
}
