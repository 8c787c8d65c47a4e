import AsymmetricKeys
import CofferTestSupport
import Foundation
import Testing
import X509Kit

/// The CRLs of Fixtures/realworld/crls (tools/realworld/crls.sh: openssl ca and pyca/cryptography)
/// read into X509Kit's model: what openssl crl -text printed of them, and what the configs and the
/// pyca builder wrote (indirect entries, reason partitions, relative names).
@Suite("CRLs from openssl and pyca")
struct CRLRealWorldTests {
    func crl(_ name: String) throws -> CertificateRevocationList {
        try CertificateRevocationList(derEncoded: RealWorldFixtures.bytes("crls", "\(name).der")[...])
    }

    func certificate(_ name: String) throws -> Certificate {
        let text = String(decoding: try RealWorldFixtures.bytes("crls", "\(name).pem"), as: UTF8.self)
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return try Certificate(derEncoded: try #require(Data(base64Encoded: body)).map { $0 }[...])
    }

    @Test("an indirect CRL carries each entry's certificateIssuer forward to the entries after it")
    func indirectEntries() throws {
        let list = try crl("crl-indirect")
        #expect(list.issuingDistributionPoint?.indirectCRL == true)
        let issuers = list.revokedCertificates.map { $0.certificateIssuer?.map(\.description) ?? [] }
        #expect(issuers == [["DirName:CN=Some Other CA"], ["DirName:CN=Coffer CRL Test Intermediate"], ["DirName:CN=Coffer CRL Test Intermediate"]])
        #expect(list.revokedCertificates.map(\.writesCertificateIssuer) == [true, true, false])
        // The leaf's serial 0100 is listed for another issuer only: it is not the leaf's entry.
        let leaf = try certificate("leaf-good"), indirectLeaf = try certificate("leaf-indirect")
        let signer = try certificate("indirect-issuer")
        #expect(list.isSigned(by: signer))
        #expect(list.entries(forSerial: leaf.serialNumber).count == 1)
        let verifier = CertificateVerifier(roots: [try certificate("root")])
        let options = VerificationOptions(time: 1_893_456_000, revocationLists: [list, try crl("crl-root")], revocationScope: .leafOnly)
        let result = verifier.verify(indirectLeaf, untrusted: [try certificate("int"), signer], options: options)
        #expect(result.failedPaths.flatMap(\.failures).contains { $0.certificateIndex == 0 && $0.reason == .revoked })
    }

    @Test("onlySomeReasons and relative names are read; the IDP lines say them")
    func issuingDistributionPoints() throws {
        let key = try #require(try crl("crl-int-reasons-key").issuingDistributionPoint?.onlySomeReasons)
        #expect(CertificateRevocationList.reasonFlagNames(key) == ["keyCompromise", "cACompromise"])
        let other = try #require(try crl("crl-int-reasons-other").issuingDistributionPoint?.onlySomeReasons)
        #expect(CertificateRevocationList.reasonFlagNames(other) == ["affiliationChanged", "superseded", "cessationOfOperation",
                                                                    "certificateHold", "privilegeWithdrawn", "aACompromise"])
        let partition = try crl("crl-int-partition1")
        let relative = try #require(partition.issuingDistributionPoint?.relativeName)
        #expect(DistinguishedName(relativeNames: [relative]).rfc4514String == "CN=Partition 1")
        let leaf = try certificate("leaf-relative")
        let point = try #require(leaf.extensions.crlDistributionPoints?.first)
        #expect(point.relativeName == relative)
        #expect(partition.shownExtensions.first { $0.name == "X509v3 Issuing Distribution Point" }?.isCritical == true)
    }

    @Test("a delta CRL names its base and applies to its complete CRL; alone it decides nothing")
    func delta() throws {
        let base = try crl("crl-int-base"), delta = try crl("crl-int-delta")
        #expect(delta.deltaCRLIndicator.map(CertificateRevocationList.numberText) == "32")
        #expect(base.crlNumber.map(CertificateRevocationList.numberText) == "32")
        let leaf = try certificate("leaf-good"), issuer = try certificate("int")
        #expect(CertificateRevocationList.status(of: leaf, issuedBy: issuer, at: 1_893_456_000, in: [base, delta])
            == .revoked(at: 1_746_057_600, reason: "superseded"))
        #expect(CertificateRevocationList.status(of: leaf, issuedBy: issuer, at: 1_893_456_000, in: [base]) == .good)
        // The delta alone decides nothing.
        guard case .undetermined(let why) = CertificateRevocationList.status(of: leaf, issuedBy: issuer, at: 1_893_456_000, in: [delta]) else {
            Issue.record("a delta alone decided")
            return
        }
        #expect(why.contains("only a delta CRL"))
    }
}
