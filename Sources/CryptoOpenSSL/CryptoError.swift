import CofferErrors

/// The single error type of the CryptoOpenSSL module, in the shape every Coffer error has
/// (``CofferError``).
///
/// Every failure names the `operation` that failed (usually the OpenSSL function, such as
/// `EVP_DecryptFinal_ex`), a human `reason`, and the whole OpenSSL error queue as it was when the
/// failure was detected. Messages never contain key bytes, passphrases or plaintext.
///
/// Equality compares the ``code`` only, as for every Coffer error, so tests and callers can match
/// on the kind of failure.
public struct CryptoError: CofferError {
    /// What kind of failure happened. Opaque so that new codes can be added.
    public typealias Code = ErrorCode<CryptoError>

    /// What kind of failure happened.
    public var code: Code
    /// The operation that failed, usually the name of the OpenSSL function.
    public var operation: String
    /// A human explanation of the failure.
    public var reason: String
    /// The OpenSSL error queue, drained at the time of the failure, oldest entry first.
    ///
    /// Each entry reads `library: reason (function) file:line` as OpenSSL reported it.
    public var openSSLErrors: [String]
    /// The error this one wraps, if any.
    public var cause: (any Error & Sendable)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - operation: The operation that failed.
    ///   - reason: A human explanation; must not contain secret material.
    ///   - openSSLErrors: The drained OpenSSL error queue.
    ///   - cause: The error this one wraps, if any.
    public init(_ code: Code, operation: String, reason: String, openSSLErrors: [String] = [], cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.operation = operation
        self.reason = reason
        self.openSSLErrors = openSSLErrors
        self.cause = cause
    }

    /// The ``operation`` and the ``openSSLErrors`` queue.
    public var context: ErrorContext { ErrorContext(operation: operation, openSSLErrors: openSSLErrors) }

    /// `operation: reason [OpenSSL: entry; entry]`.
    public var description: String {
        var text = "\(operation): \(reason)"
        if !openSSLErrors.isEmpty {
            text += " [OpenSSL: " + openSSLErrors.joined(separator: "; ") + "]"
        }
        return text
    }
}

extension ErrorCode where Domain == CryptoError {
    /// An OpenSSL call failed for a reason not covered by a more specific code.
    public static var openSSL: Self { Self("openSSL") }
    /// The caller passed an argument the operation cannot accept (wrong key or IV length, ...).
    public static var invalidArgument: Self { Self("invalidArgument") }
    /// An authenticated cipher (GCM) rejected the tag: the data or the key is wrong.
    public static var authenticationFailed: Self { Self("authenticationFailed") }
    /// Decryption produced bad padding: most often a wrong key or passphrase.
    public static var badDecrypt: Self { Self("badDecrypt") }
    /// The requested algorithm or parameter is not supported by this build of OpenSSL.
    public static var unsupported: Self { Self("unsupported") }
    /// The random number generator failed.
    public static var randomFailure: Self { Self("randomFailure") }
}
