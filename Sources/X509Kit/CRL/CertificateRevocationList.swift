import ASN1Kit
import AsymmetricKeys

/// A parsed X.509 CRL (RFC 5280 §5).
///
/// SKELETON: the CRL helper replaces this body (and may add fields).
public struct CertificateRevocationList: Sendable {
    /// Who issued the CRL.
    public var issuer: DistinguishedName
    /// The whole CRL DER.
    public var derEncoded: ArraySlice<UInt8>

    /// Parses a CRL DER.
    public init(derEncoded der: ArraySlice<UInt8>) throws {
        throw CertificateError(.malformed, "CRL parsing is not implemented yet")
    }

    /// What these CRLs say about `certificate`, issued by `issuer`, at `time` (seconds since 1970):
    /// only a CRL whose issuer is `issuer`'s subject, signed by `issuer`'s key, current at `time`
    /// and whose scope covers the certificate counts.
    public static func status(of certificate: CertificateInfo, issuedBy issuer: CertificateInfo,
                              at time: Int64, in lists: [CertificateRevocationList]) -> RevocationStatus {
        .undetermined("CRL checking is not implemented yet")
    }
}
