/// What the CRLs given say about one certificate (RFC 5280 §6.3).
public enum RevocationStatus: Sendable, Hashable {
    /// A CRL that covers the certificate, signed by its issuer and current at the time, does not
    /// list it.
    case good
    /// A covering CRL lists the certificate: when (seconds since 1970) and why (RFC 5280 §5.3.1
    /// reason name, `nil` when the entry gives none).
    case revoked(at: Int64, reason: String?)
    /// No CRL given covers the certificate, or none is current or correctly signed; the sentence
    /// says which.
    case undetermined(String)
}
