import AsymmetricKeys

/// What ``CertificateVerifier/verify(_:untrusted:options:)`` found: the chain that validated, or,
/// for each candidate path it tried, the certificate that failed and why.
public struct VerificationResult: Sendable {
    /// The validated chain, leaf first and trust anchor last; `nil` when no path validated.
    public var chain: [Certificate]?
    /// Each candidate path that was tried and failed, in the order tried (empty when the first
    /// path validated). A leaf with no issuer at all gives one attempt holding just the leaf.
    public var failedPaths: [PathAttempt]

    /// Whether a path to a trust anchor validated.
    public var isValid: Bool { chain != nil }

    /// A result.
    public init(chain: [Certificate]?, failedPaths: [PathAttempt]) {
        self.chain = chain
        self.failedPaths = failedPaths
    }
}

/// One candidate path and what failed on it.
public struct PathAttempt: Sendable {
    /// The path, leaf first (the last element is a trust anchor when the path reached one).
    public var path: [Certificate]
    /// Every failure found on the path (at least one).
    public var failures: [VerificationFailure]

    /// An attempt.
    public init(path: [Certificate], failures: [VerificationFailure]) {
        self.path = path
        self.failures = failures
    }
}

/// Why a certificate of a candidate path failed.
public struct VerificationFailure: Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, as a stable identifier for JSON and tests.
    public enum Reason: String, Sendable, Hashable {
        case noIssuer = "no-issuer"
        case untrustedRoot = "untrusted-root"
        case signatureInvalid = "signature-invalid"
        case unsupportedSignatureAlgorithm = "unsupported-signature-algorithm"
        case notYetValid = "not-yet-valid"
        case expired
        case notCA = "not-ca"
        case pathLengthExceeded = "path-length-exceeded"
        case depthExceeded = "depth-exceeded"
        case keyUsage = "key-usage"
        case extendedKeyUsage = "extended-key-usage"
        case nameConstraints = "name-constraints"
        case unknownCriticalExtension = "unknown-critical-extension"
        case policy
        case revoked
        case revocationUnavailable = "revocation-unavailable"
        case peerMismatch = "peer-mismatch"
        case loop
        case malformed
        case profile
        case workLimit = "work-limit"
    }

    /// Which certificate failed: its index in ``PathAttempt/path`` (0 is the leaf).
    public var certificateIndex: Int
    /// The kind of failure.
    public var reason: Reason
    /// A sentence that says what failed, naming the values involved (never key bytes).
    public var detail: String

    /// A failure.
    public init(certificateIndex: Int, reason: Reason, detail: String) {
        self.certificateIndex = certificateIndex
        self.reason = reason
        self.detail = detail
    }

    /// `certificate N: detail`.
    public var description: String { "certificate \(certificateIndex): \(detail)" }
}
