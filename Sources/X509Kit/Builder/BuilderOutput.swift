/// What ``CertificateBuilder/build(now:)`` and ``CertificationRequestBuilder/build()`` return: the
/// DER, the certificate or request it reads back as (the builder checks every output that way, so
/// the caller never parses it again), and the warnings about it.
public struct BuilderOutput: Sendable, Hashable {
    /// The signed certificate or request.
    public let der: [UInt8]
    /// One sentence each for what clients may refuse or what is unusual (a TLS leaf valid more than
    /// 398 days, a CA without keyCertSign, a CA key weaker than the subject's, …). Never silent:
    /// the command line prints each on standard error.
    public let warnings: [String]
    /// The new certificate, as read back from ``der`` (`nil` for a request).
    public let certificate: Certificate?
    /// The new request, as read back from ``der`` (`nil` for a certificate).
    public let request: CertificationRequest?

    /// The output of a certificate.
    init(certificate: Certificate, warnings: [String]) {
        der = Array(certificate.derEncoded)
        self.warnings = warnings
        self.certificate = certificate
        request = nil
    }

    /// The output of a request.
    init(request: CertificationRequest, der: [UInt8], warnings: [String]) {
        self.der = der
        self.warnings = warnings
        certificate = nil
        self.request = request
    }

    /// Outputs are equal when their DER and warnings are.
    public static func == (left: BuilderOutput, right: BuilderOutput) -> Bool {
        left.der == right.der && left.warnings == right.warnings
    }

    /// Hashes the DER and the warnings.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(der)
        hasher.combine(warnings)
    }
}
