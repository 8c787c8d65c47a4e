import ASN1Kit
import AsymmetricKeys

extension CertificateRevocationList {
    /// What these CRLs say about `certificate`, issued by `issuer`, at `time` (seconds since 1970):
    /// only a CRL whose issuer is `issuer`'s subject, signed by `issuer`'s key, current at `time`
    /// and whose scope covers the certificate counts.
    ///
    /// A CRL is used when, in this order:
    /// 1. its issuer name matches `issuer`'s subject (RFC 5280 §7.1, ``AsymmetricKeys/DistinguishedName/matches(_:)``), and its
    ///    authorityKeyIdentifier, when both it and `issuer`'s subjectKeyIdentifier are present,
    ///    names `issuer`'s key;
    /// 2. it is a complete, conforming CRL: a v2 CRL without a cRLNumber or with a critical one
    ///    (RFC 5280 §5.2.3; a v1 CRL, which carries no extensions, is still used), delta CRLs
    ///    (deltaCRLIndicator), indirect CRLs, CRLs for some reasons only and CRLs with an unknown
    ///    critical extension are not used;
    /// 3. `issuer` may sign CRLs (keyUsage, when present, has cRLSign) and the signature verifies
    ///    with `issuer`'s key;
    /// 4. thisUpdate ≤ `time` ≤ nextUpdate (a CRL past its nextUpdate is stale);
    /// 5. its issuingDistributionPoint covers the certificate: onlyContainsUserCerts excludes CA
    ///    certificates, onlyContainsCACerts end-entity ones, onlyContainsAttributeCerts all; a
    ///    distribution point full name must share a name with one of the certificate's CRL
    ///    distribution points (a CRL naming a point covers no certificate without one, as OpenSSL
    ///    decides); a relative name is not matched, so such a CRL is not used.
    ///
    /// Then the certificate's serial is looked up. Any used CRL listing it gives ``RevocationStatus/revoked(at:reason:)``
    /// (an entry with removeFromCRL or an unknown critical entry extension is not taken as a
    /// revocation); otherwise one used CRL gives ``RevocationStatus/good``; none gives
    /// ``RevocationStatus/undetermined(_:)`` with a sentence per CRL that was set aside.
    public static func status(of certificate: Certificate, issuedBy issuer: Certificate,
                              at time: Int64, in lists: [CertificateRevocationList]) -> RevocationStatus {
        var reasons: [String] = []
        var covered = false
        for (index, list) in lists.enumerated() {
            if let reason = list.whyNotUsable(for: certificate, issuedBy: issuer, at: time) {
                if reason != Self.otherIssuer { reasons.append("CRL \(index + 1): \(reason)") }
                continue
            }
            covered = true
            if let entry = list.entry(forSerial: certificate.serialNumber), entry.reason != .removeFromCRL,
               entry.unknownCriticalExtensions.isEmpty {
                return .revoked(at: entry.revocationDate.secondsSince1970, reason: entry.reason?.name)
            }
        }
        if covered { return .good }
        if reasons.isEmpty {
            return .undetermined("no CRL given was issued by \(issuer.subject.rfc4514String)")
        }
        return .undetermined(reasons.joined(separator: "; "))
    }

    /// The sentence for a CRL from another issuer, which is not reported.
    private static let otherIssuer = "issued by another CA"

    /// Why this CRL cannot say anything about `certificate`; `nil` when it can.
    func whyNotUsable(for certificate: Certificate, issuedBy issuer: Certificate, at time: Int64) -> String? {
        guard self.issuer.matches(issuer.subject), certificate.issuer.matches(issuer.subject) else { return Self.otherIssuer }
        if let keyID = authorityKeyIdentifier?.keyIdentifier, let subjectKeyID = issuer.extensions.subjectKeyIdentifier,
           keyID != subjectKeyID {
            return "its authorityKeyIdentifier names another key of \(issuer.subject.rfc4514String)"
        }
        if version == 2, crlNumber == nil {
            return "it has no cRLNumber extension, which RFC 5280 §5.2.3 requires in every v2 CRL"
        }
        if extensions.contains(where: { $0.oid == CertificateExtension.crlNumber && $0.isCritical }) {
            return "its cRLNumber extension is marked critical, which RFC 5280 §5.2.3 forbids"
        }
        if deltaCRLIndicator != nil { return "it is a delta CRL, which is not supported" }
        if let unknown = unknownCriticalExtensions.first { return "it has the unknown critical extension \(unknown.name)" }
        if let point = issuingDistributionPoint {
            if point.indirectCRL { return "it is an indirect CRL, which is not supported" }
            if point.onlySomeReasons != nil { return "it covers only some revocation reasons" }
        }
        if let usage = issuer.extensions.keyUsage, !usage.contains(.cRLSign) {
            return "its issuer's keyUsage lacks cRLSign"
        }
        let signed = (try? signatureAlgorithm.verify(signature, over: Array(tbsCertList), with: issuer.publicKey)) ?? false
        guard signed else { return "its signature does not verify with the key of \(issuer.subject.rfc4514String)" }
        if time < thisUpdate.secondsSince1970 { return "its thisUpdate (\(thisUpdate)) is after the verification time" }
        if let next = nextUpdate, time > next.secondsSince1970 { return "it is stale: its nextUpdate (\(next)) has passed" }
        if let point = issuingDistributionPoint {
            let isCA = certificate.extensions.basicConstraints?.isCA ?? false
            if point.onlyContainsUserCerts, isCA { return "it covers only end-entity certificates" }
            if point.onlyContainsCACerts, !isCA { return "it covers only CA certificates" }
            if point.onlyContainsAttributeCerts { return "it covers only attribute certificates" }
            if point.hasRelativeName { return "its distribution point is a name relative to the issuer, which is not matched" }
            if !point.fullName.isEmpty {
                let points = certificate.extensions.crlDistributionPoints ?? []
                if points.contains(where: { !$0.crlIssuer.isEmpty }) { return "the certificate names another CRL issuer" }
                let names = Set(points.flatMap(\.fullName))
                guard point.fullName.contains(where: names.contains) else {
                    return "its distribution point is not one of the certificate's CRL distribution points"
                }
            }
        }
        return nil
    }
}
