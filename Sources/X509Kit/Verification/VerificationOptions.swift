import ASN1Kit
import AsymmetricKeys

/// What a ``CertificateVerifier`` checks besides the path itself: the time, the peer's name, the
/// purpose, revocation, depth and the rule set.
public struct VerificationOptions: Sendable {
    /// Which rules apply on top of RFC 5280's path validation.
    public enum Profile: String, Sendable, Hashable {
        /// RFC 5280 path validation (§6), as OpenSSL's `X509_verify_cert` applies it. Rules of
        /// the §4 certificate profile that bind the CA that wrote a certificate but that §6 does
        /// not make the relying party enforce (a CA's basic constraints, policy constraints or name
        /// constraints not marked critical) are reported as ``VerificationResult/warnings``, not
        /// failures.
        case rfc5280
        /// RFC 5280 §6 plus the §4 certificate profile's MUSTs as failures, as
        /// `openssl verify -x509_strict` and pyca/cryptography enforce them (x509-limbo's
        /// `rfc5280` namespace expects this).
        case strict
        /// RFC 5280 plus the CA/Browser Forum Baseline Requirements a browser enforces for TLS
        /// server certificates (as pyca/cryptography's and webpki's verifiers do); a CA's basic
        /// and policy constraints must be critical, its name constraints may not be (BR §7.1.2.5.2).
        case webPKI
    }

    /// The instant to validate at, seconds since 1970-01-01T00:00:00Z; `nil`: now.
    public var time: Int64?
    /// The name the leaf must be for (RFC 6125); `nil`: no name check.
    public var peer: PeerIdentity?
    /// The extended key usages the leaf must allow; `nil`: any.
    public var purpose: CertificatePurpose?
    /// Key usage bits the leaf must have; `nil` or empty: none required.
    public var requiredKeyUsage: KeyUsage?
    /// Which certificates of a path must be covered by the CRLs given.
    public enum RevocationScope: String, Sendable, Hashable {
        /// Every certificate but the trust anchor (OpenSSL's `-crl_check_all`).
        case wholePath
        /// The leaf only (OpenSSL's `-crl_check`); intermediates a CRL revokes still fail.
        case leafOnly
    }

    /// CRLs to check the path against (RFC 5280 §6.3); empty: no revocation check.
    public var revocationLists: [CertificateRevocationList]
    /// Which certificates need a usable CRL when ``revocationLists`` is not empty; a certificate
    /// in scope that no usable CRL covers fails with `revocation-unavailable`.
    public var revocationScope: RevocationScope
    /// Check revocation even when ``revocationLists`` is empty, so every certificate in scope
    /// fails as revocation-unavailable: CRLs were asked for but none could be read.
    public var requiresRevocation = false
    /// How deep this verification is nested in checking CRL signers' own paths.
    var revocationNesting = 0
    /// The SHA-256 of the CRL signers whose own paths the enclosing verifications are checking.
    var crlSignersInProgress: [String] = []
    /// The most intermediate certificates a path may hold (the leaf and the trust anchor are not
    /// counted, as OpenSSL's `-verify_depth` minus one); `nil`: ``defaultMaximumIntermediates``.
    public var maximumIntermediates: Int?
    /// The rule set.
    public var profile: Profile
    /// The most signature checks one ``CertificateVerifier/verify(_:untrusted:options:)`` call
    /// makes across all candidate paths: an attacker who supplies many intermediates or cross signs
    /// cannot make path building cost more than this.
    public var maximumSignatureChecks: Int
    /// Whether signatures over SHA-1 (sha1WithRSAEncryption, ecdsa-with-SHA1, dsaWithSHA1) count
    /// as valid. Off by default: SHA-1 collisions are practical (chosen-prefix since 2020). On for
    /// old hierarchies such as NIST's PKITS, whose DSA certificates are signed with dsaWithSHA1
    /// (`openssl verify` 3.0 accepts SHA-1 at its default security level 1).
    public var acceptsSHA1Signatures: Bool

    /// The default cap on intermediates.
    public static let defaultMaximumIntermediates = 8

    /// Options for a verification; every check not asked for is off.
    public init(time: Int64? = nil, peer: PeerIdentity? = nil, purpose: CertificatePurpose? = nil,
                requiredKeyUsage: KeyUsage? = nil, revocationLists: [CertificateRevocationList] = [],
                revocationScope: RevocationScope = .wholePath, maximumIntermediates: Int? = nil, profile: Profile = .rfc5280,
                maximumSignatureChecks: Int = 256, acceptsSHA1Signatures: Bool = false) {
        self.time = time
        self.peer = peer
        self.purpose = purpose
        self.requiredKeyUsage = requiredKeyUsage
        self.revocationLists = revocationLists
        self.revocationScope = revocationScope
        self.maximumIntermediates = maximumIntermediates
        self.profile = profile
        self.maximumSignatureChecks = maximumSignatureChecks
        self.acceptsSHA1Signatures = acceptsSHA1Signatures
    }
}
