import ASN1Kit
import AsymmetricKeys

/// What kind of certificate a ``CertificateBuilder`` makes: the defaults of its key usage, extended
/// key usage, basic constraints and validity, and which warnings apply.
///
/// | profile | issuer | basicConstraints | keyUsage | extKeyUsage | days |
/// |---|---|---|---|---|---|
/// | `root` | itself | critical, cA | critical keyCertSign, cRLSign | — | 3650 |
/// | `intermediate` | a CA | critical, cA, pathLen 0 | critical keyCertSign, cRLSign, digitalSignature | — | 1825 |
/// | `leaf` (TLS server) | a CA | critical, not cA | critical digitalSignature (+ keyEncipherment for RSA) | serverAuth | 397 |
/// | `client` | a CA | critical, not cA | critical digitalSignature (+ keyEncipherment for RSA) | clientAuth | 397 |
/// | `selfSigned` | itself | critical, not cA | critical digitalSignature (+ keyEncipherment for RSA) | serverAuth, clientAuth | 365 |
public enum CertificateProfile: String, Sendable, Hashable, CaseIterable {
    /// A self-signed trust anchor.
    case root
    /// A CA signed by another CA; its path length is 0 unless given.
    case intermediate
    /// A TLS server certificate signed by a CA.
    case leaf
    /// A TLS client certificate signed by a CA.
    case client
    /// A self-signed end-entity certificate (a TLS server or client that is pinned, not chained).
    case selfSigned = "self-signed"

    /// Whether the profile makes a CA certificate.
    public var isCertificateAuthority: Bool { self == .root || self == .intermediate }

    /// Whether the certificate signs itself (`root`, `selfSigned`); the others need an issuer,
    /// except that a `leaf` or `client` may be self-signed with a warning.
    public var isSelfIssued: Bool { self == .root || self == .selfSigned }

    /// The default path length: 0 for an intermediate, none otherwise.
    public var defaultPathLength: Int? { self == .intermediate ? 0 : nil }

    /// The default validity in days: 3650 (root), 1825 (intermediate), 397 (leaf, client: under
    /// the CA/Browser Forum's 398), 365 (self-signed).
    public var defaultDays: Int {
        switch self {
        case .root: 3650
        case .intermediate: 1825
        case .leaf, .client: 397
        case .selfSigned: 365
        }
    }

    /// The default key usage for a subject key: CAs sign certificates and CRLs, end entities sign
    /// (and, with RSA keys, encipher keys for TLS 1.2 RSA key exchange).
    public func defaultKeyUsage(for key: PublicKey) -> KeyUsage {
        switch self {
        case .root: [.keyCertSign, .cRLSign]
        case .intermediate: [.keyCertSign, .cRLSign, .digitalSignature]
        case .leaf, .client, .selfSigned:
            if case .rsa = key { [.digitalSignature, .keyEncipherment] } else { [.digitalSignature] }
        }
    }

    /// The default extended key usage (none for CAs).
    public var defaultExtendedKeyUsage: [ASN1ObjectIdentifier] {
        switch self {
        case .root, .intermediate: []
        case .leaf: [CertificateProfile.serverAuth]
        case .client: [CertificateProfile.clientAuth]
        case .selfSigned: [CertificateProfile.serverAuth, CertificateProfile.clientAuth]
        }
    }

    /// `id-kp-serverAuth`.
    public static let serverAuth: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.3.1"
    /// `id-kp-clientAuth`.
    public static let clientAuth: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.3.2"
}
