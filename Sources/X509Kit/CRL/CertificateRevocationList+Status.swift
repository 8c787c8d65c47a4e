import ASN1Kit
import AsymmetricKeys

extension CertificateRevocationList {
    /// What these CRLs say about `certificate`, issued by `issuer`, at `time` (seconds since 1970),
    /// by RFC 5280 §6.3.3 with `issuer` as the only CRL signer: CRLs signed by another key of the
    /// same name, and indirect CRLs whose issuer is not `issuer`, need the certificates a
    /// ``CertificateVerifier`` offers and are set aside here.
    ///
    /// Complete CRLs are used when their issuer (or, for a distribution point naming a cRLIssuer,
    /// an indirect CRL's issuer) matches, their issuingDistributionPoint covers the certificate
    /// (names one of its distribution points, a name relative to the CRL issuer completed with
    /// that name; allows its kind), they carry no unknown critical extension or entry extension,
    /// have a non-critical cRLNumber (v2), are current at `time` and signed by a key allowed to
    /// sign CRLs. They are collected until every reason is covered (onlySomeReasons partitions);
    /// a current delta CRL whose BaseCRLNumber ≤ a complete CRL's number applies to it.
    ///
    /// A covering CRL (or its delta) listing the serial gives ``RevocationStatus/revoked(at:reason:)``
    /// (a delta entry with removeFromCRL unrevokes); all reasons covered without one gives
    /// ``RevocationStatus/good``; otherwise ``RevocationStatus/undetermined(_:)`` with a sentence
    /// per CRL that was set aside.
    public static func status(of certificate: Certificate, issuedBy issuer: Certificate,
                              at time: Int64, in lists: [CertificateRevocationList]) -> RevocationStatus {
        RevocationChecker(lists: lists, time: time, signers: { _ in [] }, signerIsValid: { _ in false })
            .status(of: certificate, issuedBy: issuer)
    }

    /// Whether this CRL's signature verifies with `certificate`'s public key (the name and key
    /// usage are not checked).
    public func isSigned(by certificate: Certificate) -> Bool {
        RevocationChecker.signed(self, by: certificate)
    }
}
