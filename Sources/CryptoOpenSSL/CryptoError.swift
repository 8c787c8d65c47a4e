@_exported import CofferErrors

/// The single error type of the CryptoOpenSSL module, in the shape every Coffer error has
/// (``CofferError``).
///
/// Every failure names the `operation` that failed (usually the OpenSSL function, such as
/// `EVP_DecryptFinal_ex`), a human `reason`, and the whole OpenSSL error queue as it was when the
/// failure was detected. Messages never contain key bytes, passphrases or plaintext.
///
/// Equality compares the ``code`` only, as for every Coffer error, so tests and callers can match
/// on the kind of failure.
public struct CryptoError: ModuleError {
    /// What kind of failure happened. Opaque so that new codes can be added.
    public typealias Code = ErrorCode<CryptoError>

    /// The code, reason, context, cause and origin (``CofferErrors/ModuleError``).
    public var parts: ErrorParts<Code>

    /// Creates an error from its parts (call sites use the labelled form, see ``CofferErrors/ModuleError``).
    public init(parts: ErrorParts<Code>) { self.parts = parts }

    /// `operation: reason [OpenSSL: entry; entry]`.
    public var description: String {
        var text = "\(operation ?? "OpenSSL"): \(reason)"
        if !openSSLErrors.isEmpty {
            text += " [OpenSSL: " + openSSLErrors.joined(separator: "; ") + "]"
        }
        return text
    }
}

extension ErrorCode where Domain == CryptoError {
    /// An OpenSSL call failed for a reason not covered by a more specific code.
    public static var openSSL: Self { Self() }
    /// The caller passed an argument the operation cannot accept (wrong key or IV length, ...).
    public static var invalidArgument: Self { Self() }
    /// An authenticated cipher (GCM) rejected the tag: the data or the key is wrong.
    public static var authenticationFailed: Self { Self() }
    /// Decryption produced bad padding: most often a wrong key or passphrase.
    public static var badDecrypt: Self { Self() }
    /// The requested algorithm or parameter is not supported by this build of OpenSSL.
    public static var unsupported: Self { Self() }
    /// The random number generator failed.
    public static var randomFailure: Self { Self() }
}
