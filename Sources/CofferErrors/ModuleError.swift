/// The one error type of a Coffer library module (`ASN1Error`, `JSONParseError`, `CryptoError`,
/// `KeyError`, `KVStoreError`, `DownloadError`, `DecryptionError`): a ``CofferError`` built the
/// same way in every module.
///
/// Every such type is constructed with the one labelled initializer,
/// ``init(_:_:offset:path:key:url:operation:errno:openSSLErrors:cause:file:line:)``:
/// the code, the reason, what is known of where (the fields of ``ErrorContext``, in its order), the
/// wrapped error. It keeps the caller's file and line in ``raisedAt``. A type adds named
/// factories only for a message it builds in many places (`KeyError.malformed(_:_:)`), and
/// modifiers for its own extra fields (`KVStoreError.withDamage(_:)`).
///
/// The errors that only wrap another (`DownloadBatchError`, `DownloadChainError`) are
/// ``CofferError``s, not module errors: they are made from the error they wrap.
public protocol ModuleError: CofferError {
    /// Where in Coffer's sources the error was raised: for bug reports, not part of messages.
    var raisedAt: CodeLocation { get }

    /// Creates an error from all its parts: the one initializer each module error type
    /// implements. Call sites use the labelled form, which builds the context and the location.
    init(_ code: Code, _ reason: String, context: ErrorContext, cause: (any Error & Sendable)?, raisedAt: CodeLocation)
}
