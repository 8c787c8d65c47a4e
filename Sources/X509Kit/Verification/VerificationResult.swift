import AsymmetricKeys

/// What ``CertificateVerifier/verify(_:untrusted:options:)`` found: the chain that validated, or,
/// for each candidate path it tried, the certificate that failed and why.
public struct VerificationResult: Sendable {
    /// The validated chain, leaf first and trust anchor last; `nil` when no path validated.
    public var chain: [Certificate]?
    /// Each candidate path that was tried and failed, in the order tried (empty when the first
    /// path validated). A leaf with no issuer at all gives one attempt holding just the leaf.
    public var failedPaths: [PathAttempt]
    /// What the chain that validated breaks of RFC 5280's certificate profile (§4) without the
    /// chosen profile refusing it: under ``VerificationOptions/Profile/rfc5280``, a CA's basic,
    /// policy or name constraints not marked critical, a missing key identifier, a bad serial
    /// number… (``VerificationOptions/Profile/strict`` makes them failures). Indices are into
    /// ``chain``; empty when no chain validated.
    public var warnings: [VerificationFailure]

    /// Whether a path to a trust anchor validated.
    public var isValid: Bool { chain != nil }

    /// The failed path that came closest to validating, to report first: among the paths that
    /// reached a trust anchor, the one with the fewest failures; when none did, the longest path
    /// (the first of equals, in the order tried). `nil` when there are no failed paths.
    public var closestAttempt: PathAttempt? {
        failedPaths.enumerated().max { left, right in
            let l = left.element, r = right.element
            if l.reachedTrustAnchor != r.reachedTrustAnchor { return !l.reachedTrustAnchor }
            if l.reachedTrustAnchor && l.failures.count != r.failures.count { return l.failures.count > r.failures.count }
            if l.path.count != r.path.count { return l.path.count < r.path.count }
            return left.offset > right.offset
        }?.element
    }

    /// A result.
    public init(chain: [Certificate]?, failedPaths: [PathAttempt], warnings: [VerificationFailure] = []) {
        self.chain = chain
        self.failedPaths = failedPaths
        self.warnings = warnings
    }
}

/// One candidate path and what failed on it.
public struct PathAttempt: Sendable {
    /// The path, leaf first (the last element is a trust anchor when the path reached one).
    public var path: [Certificate]
    /// Every failure found on the path (at least one).
    public var failures: [VerificationFailure]
    /// Whether the path ends at a trust anchor, so it was validated whole; `false` when building
    /// stopped below one (no issuer, a bad signature, a loop, a cap).
    public var reachedTrustAnchor: Bool

    /// An attempt.
    public init(path: [Certificate], failures: [VerificationFailure], reachedTrustAnchor: Bool = false) {
        self.path = path
        self.failures = failures
        self.reachedTrustAnchor = reachedTrustAnchor
    }
}

/// Why a certificate of a candidate path failed.
public struct VerificationFailure: Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, as a stable identifier for JSON and tests (`no-issuer`, `expired`, …).
    ///
    /// A struct with one static constant per kind, not an enum, as Coffer's error codes are
    /// (`CofferErrorCode`): a new kind is an addition, and no client's `switch` stops compiling (a
    /// switch over a reason needs a `default:` case). Compare with `==` (`failure.reason == .expired`);
    /// ``rawValue`` is the identifier (`not-yet-valid`), which is also the ``description``.
    /// Reasons are opaque: only X509Kit makes them.
    public struct Reason: Sendable, Hashable, CustomStringConvertible {
        /// The stable identifier: `no-issuer`, `not-yet-valid`, `work-limit`, ….
        public let rawValue: String

        /// The reason spelled `rawValue`.
        package init(_ rawValue: String) { self.rawValue = rawValue }

        /// The ``rawValue``.
        public var description: String { rawValue }

        /// No certificate among the roots and the untrusted ones issued this one.
        public static let noIssuer = Reason("no-issuer")
        /// The path ends in a self-signed certificate that is not a trust anchor.
        public static let untrustedRoot = Reason("untrusted-root")
        /// The issuer's key does not verify the certificate's signature.
        public static let signatureInvalid = Reason("signature-invalid")
        /// The signature algorithm is one the verifier does not check.
        public static let unsupportedSignatureAlgorithm = Reason("unsupported-signature-algorithm")
        /// The verification time is before the certificate's notBefore.
        public static let notYetValid = Reason("not-yet-valid")
        /// The verification time is after the certificate's notAfter.
        public static let expired = Reason("expired")
        /// An issuer without basic constraints that make it a CA.
        public static let notCA = Reason("not-ca")
        /// More CAs follow a CA than its path length constraint allows.
        public static let pathLengthExceeded = Reason("path-length-exceeded")
        /// The path holds more intermediates than the options allow.
        public static let depthExceeded = Reason("depth-exceeded")
        /// The key usage does not allow what the certificate is used for.
        public static let keyUsage = Reason("key-usage")
        /// The extended key usage does not include the purpose asked for.
        public static let extendedKeyUsage = Reason("extended-key-usage")
        /// A name in the certificate is outside a CA's name constraints.
        public static let nameConstraints = Reason("name-constraints")
        /// A critical extension the verifier does not know.
        public static let unknownCriticalExtension = Reason("unknown-critical-extension")
        /// No certificate policy is valid for the whole path (RFC 5280 §6.1).
        public static let policy = Reason("policy")
        /// A CRL revokes the certificate.
        public static let revoked = Reason("revoked")
        /// A CRL was asked for but none that covers the certificate was given or usable.
        public static let revocationUnavailable = Reason("revocation-unavailable")
        /// The leaf is not for the host, IP address or email address asked for.
        public static let peerMismatch = Reason("peer-mismatch")
        /// The path comes back to a certificate already on it.
        public static let loop = Reason("loop")
        /// The certificate breaks an RFC 5280 rule about its own content.
        public static let malformed = Reason("malformed")
        /// The certificate breaks a rule of the chosen profile (Web PKI).
        public static let profile = Reason("profile")
        /// Path building stopped at the limit on signature checks.
        public static let workLimit = Reason("work-limit")
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
