import AsymmetricKeys

/// RFC 5280 path validation over a set of trust anchors.
///
/// SKELETON: the verifier helper replaces this body.
public struct CertificateVerifier: Sendable {
    /// The trust anchors.
    public var roots: [CertificateInfo]

    /// A verifier trusting `roots`.
    public init(roots: [CertificateInfo]) {
        self.roots = roots
    }

    /// Builds and validates a path from `leaf` to one of ``roots``, through `untrusted`.
    public func verify(_ leaf: CertificateInfo, untrusted: [CertificateInfo] = [],
                       options: VerificationOptions = VerificationOptions()) -> VerificationResult {
        VerificationResult(chain: nil, failedPaths: [PathAttempt(path: [leaf], failures: [
            VerificationFailure(certificateIndex: 0, reason: .noIssuer, detail: "not implemented yet"),
        ])])
    }
}
