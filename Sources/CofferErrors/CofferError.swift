/// The one shape of every Coffer library error.
///
/// Each library module has one error type (`ASN1Error`, `JSONParseError`, `CryptoError`,
/// `KeyError`, `KVStoreError`, `DownloadError`, `DecryptionError`), and each conforms to this
/// protocol:
///
/// - ``code``: what kind of failure, an opaque ``ErrorCode`` of the error type's own domain to
///   match on;
/// - ``reason``: a sentence for people;
/// - ``context``: where (byte offset, file path, key name, URL, operation or system call with its
///   `errno`, the OpenSSL error queue);
/// - ``cause``: the error this one wraps, if any; ``causes`` walks the whole chain.
///
/// **Equality compares the code only.** Two errors of the same type are equal when their codes
/// are equal, whatever their reasons, contexts and causes; hashing (for the types that are
/// `Hashable`) uses the code only too. Tests that care where an error happened check
/// `context.offset` (or the type's own `offset`) explicitly.
///
/// No message, reason or context ever holds key bytes, passphrases, crypt keys, stored values,
/// plaintext or header values.
public protocol CofferError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The type of ``code``: ``ErrorCode`` with this error type as its domain, so the codes of two
    /// error types are never equal.
    associatedtype Code: CofferErrorCode

    /// What kind of failure this is.
    var code: Code { get }
    /// A sentence explaining the failure, free of secrets.
    var reason: String { get }
    /// Where the failure happened, as far as it is known.
    var context: ErrorContext { get }
    /// The error this one wraps, if any (a ``CofferError`` of a lower module, a system or
    /// transport error).
    var cause: (any Error & Sendable)? { get }
}

extension CofferError {
    /// The equality rule of every Coffer error: the codes are equal.
    ///
    /// Reason, context and cause are not compared, so an error can be matched without depending
    /// on its wording or on where it was found.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
}

extension CofferError where Self: Hashable {
    /// Hashes the code only, as ``==(_:_:)`` compares it only.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }
}
