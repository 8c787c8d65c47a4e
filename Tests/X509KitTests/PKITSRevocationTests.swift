import AsymmetricKeys
import CofferTestSupport
import Foundation
import Testing
import X509Kit

/// NIST PKITS (Fixtures/pkits, from pyca's cryptography_vectors) sections on CRLs: 4.4 basic
/// certificate revocation, 4.14 distribution points (indirect CRLs, reason partitions, relative
/// names), 4.15 delta CRLs, and the CRL cases of 4.5 (self-issued CRL signing key) and 4.7
/// (keyUsage without cRLSign). Each test's expected outcome is its name (ValidXxx / InvalidXxx);
/// every CA certificate of the directory is the untrusted pool and every CRL the CRL set, the
/// revocation of every certificate of the path is checked (OpenSSL's -crl_check_all), at
/// 2015-01-01 (the CRLs are issued 2011-01-01, the certificates valid 2010–2030).
@Suite("PKITS revocation")
struct PKITSRevocationTests {
    static let time: Int64 = 1_420_070_400

    /// The PKITS tests of the CRL sections, by the name of their end-entity certificate.
    static let cases = [
        // 4.4 Basic certificate revocation.
        "InvalidMissingCRLTest1", "InvalidRevokedCATest2", "InvalidRevokedEETest3", "InvalidBadCRLSignatureTest4",
        "InvalidBadCRLIssuerNameTest5", "InvalidWrongCRLTest6", "ValidTwoCRLsTest7", "InvalidUnknownCRLEntryExtensionTest8",
        "InvalidUnknownCRLExtensionTest9", "InvalidUnknownCRLExtensionTest10", "InvalidOldCRLnextUpdateTest11",
        "Invalidpre2000CRLnextUpdateTest12", "ValidGeneralizedTimeCRLnextUpdateTest13", "ValidNegativeSerialNumberTest14",
        "InvalidNegativeSerialNumberTest15", "ValidLongSerialNumberTest16", "ValidLongSerialNumberTest17",
        "InvalidLongSerialNumberTest18", "ValidSeparateCertificateandCRLKeysTest19",
        "InvalidSeparateCertificateandCRLKeysTest20", "InvalidSeparateCertificateandCRLKeysTest21",
        // 4.5.6–8 self-issued CRL signing key, 4.7.4–5 keyUsage without cRLSign.
        "ValidBasicSelfIssuedCRLSigningKeyTest6", "InvalidBasicSelfIssuedCRLSigningKeyTest7",
        "InvalidBasicSelfIssuedCRLSigningKeyTest8", "InvalidkeyUsageCriticalcRLSignFalseTest4",
        "InvalidkeyUsageNotCriticalcRLSignFalseTest5",
        // 4.14 Distribution points.
        "ValiddistributionPointTest1", "InvaliddistributionPointTest2", "InvaliddistributionPointTest3",
        "ValiddistributionPointTest4", "ValiddistributionPointTest5", "InvaliddistributionPointTest6",
        "ValiddistributionPointTest7", "InvaliddistributionPointTest8", "InvaliddistributionPointTest9",
        "ValidNoissuingDistributionPointTest10", "InvalidonlyContainsUserCertsTest11", "InvalidonlyContainsCACertsTest12",
        "ValidonlyContainsCACertsTest13", "InvalidonlyContainsAttributeCertsTest14", "InvalidonlySomeReasonsTest15",
        "InvalidonlySomeReasonsTest16", "InvalidonlySomeReasonsTest17", "ValidonlySomeReasonsTest18",
        "ValidonlySomeReasonsTest19", "InvalidonlySomeReasonsTest20", "InvalidonlySomeReasonsTest21",
        "ValidIDPwithindirectCRLTest22", "InvalidIDPwithindirectCRLTest23", "ValidIDPwithindirectCRLTest24",
        "ValidIDPwithindirectCRLTest25", "InvalidIDPwithindirectCRLTest26", "InvalidcRLIssuerTest27",
        "ValidcRLIssuerTest28", "ValidcRLIssuerTest29", "ValidcRLIssuerTest30", "InvalidcRLIssuerTest31",
        "InvalidcRLIssuerTest32", "ValidcRLIssuerTest33", "InvalidcRLIssuerTest34", "InvalidcRLIssuerTest35",
        // 4.15 Delta CRLs.
        "InvaliddeltaCRLIndicatorNoBaseTest1", "ValiddeltaCRLTest2", "InvaliddeltaCRLTest3", "InvaliddeltaCRLTest4",
        "ValiddeltaCRLTest5", "InvaliddeltaCRLTest6", "ValiddeltaCRLTest7", "ValiddeltaCRLTest8",
        "InvaliddeltaCRLTest9", "InvaliddeltaCRLTest10",
    ]

    @Test("every CRL of the suite is read but the one whose signature is no whole number of octets")
    func unreadableCRLs() throws {
        let unreadable = try PKITSSuite.shared.get().unreadable.filter { $0.hasPrefix("crls/") }
        #expect(unreadable == ["crls/BadCRLSignatureCACRL.crl"], "\(unreadable)")
    }

    @Test("PKITS CRL tests give the outcome their names say", arguments: cases)
    func pkits(_ name: String) throws {
        let data = try PKITSSuite.shared.get()
        let leaf = try PKITSSuite.certificate(name + "EE")
        let options = VerificationOptions(time: Self.time, revocationLists: data.crls, maximumIntermediates: 8)
        let result = CertificateVerifier(roots: [data.anchor]).verify(leaf, untrusted: data.pool, options: options)
        let failures = result.failedPaths.flatMap(\.failures).map(\.description).joined(separator: "\n")
        #expect(result.isValid == name.hasPrefix("Valid"), "\(name): \(failures)")
    }
}
