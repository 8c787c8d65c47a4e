/// The single error type of the CryptoOpenSSL module.
///
/// Every failure names the `operation` that failed (usually the OpenSSL function, such as
/// `EVP_DecryptFinal_ex`), a human `reason`, and the whole OpenSSL error queue as it was when the
/// failure was detected. Messages never contain key bytes, passphrases or plaintext.
///
/// Equality compares the ``code`` only, so tests and callers can match on the kind of failure.
public struct CryptoError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure happened.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// An OpenSSL call failed for a reason not covered by a more specific code.
        case openSSL
        /// The caller passed an argument the operation cannot accept (wrong key or IV length, ...).
        case invalidArgument
        /// An authenticated cipher (GCM) rejected the tag: the data or the key is wrong.
        case authenticationFailed
        /// Decryption produced bad padding: most often a wrong key or passphrase.
        case badDecrypt
        /// The requested algorithm or parameter is not supported by this build of OpenSSL.
        case unsupported
        /// The random number generator failed.
        case randomFailure
    }

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

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - operation: The operation that failed.
    ///   - reason: A human explanation; must not contain secret material.
    ///   - openSSLErrors: The drained OpenSSL error queue.
    public init(_ code: Code, operation: String, reason: String, openSSLErrors: [String] = []) {
        self.code = code
        self.operation = operation
        self.reason = reason
        self.openSSLErrors = openSSLErrors
    }

    /// `operation: reason [OpenSSL: entry; entry]`.
    public var description: String {
        var text = "\(operation): \(reason)"
        if !openSSLErrors.isEmpty {
            text += " [OpenSSL: " + openSSLErrors.joined(separator: "; ") + "]"
        }
        return text
    }

    /// Compares the codes only.
    public static func == (lhs: CryptoError, rhs: CryptoError) -> Bool {
        lhs.code == rhs.code
    }
}
