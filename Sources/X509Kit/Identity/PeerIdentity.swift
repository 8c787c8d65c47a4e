import AsymmetricKeys

/// The name a certificate must be for: a DNS host name (RFC 6125), an IP address or an email
/// address (RFC 8398 for internationalized local parts).
public enum PeerIdentity: Sendable, Hashable {
    /// A DNS host name; wildcards in the certificate follow RFC 6125 §6.4.3 and the CA/Browser Forum.
    case dns(String)
    /// An IPv4 (4 bytes) or IPv6 (16 bytes) address, matched against iPAddress SANs only.
    case ip([UInt8])
    /// An email address, matched against rfc822Name SANs.
    case email(String)

    /// Whether `certificate` is for this identity.
    ///
    /// SKELETON: the identity helper replaces this body.
    public func isMatched(by certificate: CertificateInfo) -> Bool {
        false
    }
}
