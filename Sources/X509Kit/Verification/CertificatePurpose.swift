import ASN1Kit

/// What the leaf certificate is to be used for: the extended key usage it must allow (RFC 5280
/// §4.2.1.12), as `openssl verify -purpose` names them.
public enum CertificatePurpose: Sendable, Hashable {
    /// A TLS server (`id-kp-serverAuth`).
    case serverAuth
    /// A TLS client (`id-kp-clientAuth`).
    case clientAuth
    /// Code signing (`id-kp-codeSigning`).
    case codeSigning
    /// Any of these key purposes (each given by OID); the leaf must allow at least one.
    case anyOf([ASN1ObjectIdentifier])
}
