import ASN1Kit

@_exported import CofferErrors

/// The one error type of X509Kit, in the shape every Coffer error has (``CofferError``): building a
/// certificate or request from bad options, reading a CRL or a trust store, a failed signature.
///
/// A certificate that does not verify is not an error: ``CertificateVerifier`` answers with a
/// ``VerificationResult`` that names each candidate path and why it failed. Messages never contain
/// key bytes or passphrases.
public struct CertificateError: ModuleError {
    /// What went wrong. Opaque so that new codes can be added; equality of errors compares the
    /// code only.
    public typealias Code = ErrorCode<CertificateError>

    /// The code, reason, context, cause and origin (``CofferErrors/ModuleError``).
    public var parts: ErrorParts<Code>

    /// Creates an error from its parts (call sites use the labelled form, see ``CofferErrors/ModuleError``).
    public init(parts: ErrorParts<Code>) { self.parts = parts }
}

extension ErrorCode where Domain == CertificateError {
    /// An option or text argument is invalid (a subject that is not RFC 4514, a SAN without a
    /// known prefix, a validity that ends before it starts, a path length on a leaf, ...).
    public static var invalidArgument: Self { Self() }
    /// The bytes are not a well-formed CRL, certificate or request; the reason names the offset.
    public static var malformed: Self { Self() }
    /// The key cannot sign with the requested scheme, or OpenSSL failed to sign.
    public static var signingFailed: Self { Self() }
    /// A trust store (a file, a directory, the system's) cannot be found or read.
    public static var trustStoreUnavailable: Self { Self() }
    /// An input asks for more work than the verifier's limits allow (too many certificates,
    /// CRL entries or names).
    public static var limitExceeded: Self { Self() }
}
