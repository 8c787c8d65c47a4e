/// What ``CertificateBuilder/build(now:)`` and ``CertificationRequestBuilder/build()`` return: the
/// DER and the warnings about it.
public struct BuilderOutput: Sendable, Hashable {
    /// The signed certificate or request.
    public var der: [UInt8]
    /// One sentence each for what clients may refuse or what is unusual (a TLS leaf valid more than
    /// 398 days, a CA without keyCertSign, a CA key weaker than the subject's, …). Never silent:
    /// the command line prints each on standard error.
    public var warnings: [String]

    /// Creates an output.
    public init(der: [UInt8], warnings: [String]) {
        self.der = der
        self.warnings = warnings
    }
}
