/// The one error type of a Coffer library module (`ASN1Error`, `JSONParseError`, `CryptoError`,
/// `KeyError`, `KVStoreError`, `DownloadError`, `DecryptionError`): a ``CofferError`` built and
/// stored the same way in every module.
///
/// A module error stores its ``parts`` (an ``ErrorParts``) and fields of its own, if any; this
/// protocol's extension provides ``CofferError``'s properties and the context's fields as views of
/// the parts. Every such type is constructed with the one labelled initializer,
/// ``init(_:_:offset:path:key:url:operation:errno:openSSLErrors:cause:file:line:)``: the code, the
/// reason, what is known of where (the fields of ``ErrorContext``, in its order), the wrapped error.
/// It keeps the caller's file and line in ``raisedAt``. A type adds named factories only for a
/// message it builds in many places (`KeyError.malformed(_:_:)`), and modifiers for its own extra
/// fields (`KVStoreError.withDamage(_:)`).
///
/// The errors that only wrap another (`DownloadBatchError`, `DownloadChainError`) are
/// ``CofferError``s, not module errors: they are made from the error they wrap.
public protocol ModuleError: CofferError {
    /// The code, reason, context, cause and origin of this error.
    var parts: ErrorParts<Code> { get set }

    /// Creates an error from its parts: the one initializer each module error type implements.
    /// Call sites use the labelled form, which builds the parts.
    init(parts: ErrorParts<Code>)
}

extension ModuleError {
    /// Creates an error: the one way every Coffer module constructs its errors.
    ///
    /// ```swift
    /// throw KeyError(.malformed, "the PKCS#8 version is not 0 or 1", offset: 4)
    /// throw KVStoreError(.systemCall, "cannot open the data file", path: path, operation: "open", errno: errno)
    /// ```
    ///
    /// The code comes first, then the reason (a sentence free of secrets), then what is known of
    /// where (the fields of ``ErrorContext``, in its order), then the wrapped error. The caller's
    /// file and line are kept in ``raisedAt``.
    public init(
        _ code: Code, _ reason: String,
        offset: Int? = nil, path: String? = nil, key: String? = nil, url: String? = nil,
        operation: String? = nil, errno: Int32? = nil, openSSLErrors: [String] = [],
        cause: (any Error & Sendable)? = nil,
        file: String = #fileID, line: Int = #line
    ) {
        self.init(parts: ErrorParts(
            code: code, reason: reason,
            context: ErrorContext(
                offset: offset, path: path, key: key, url: url,
                operation: operation, errno: errno, openSSLErrors: openSSLErrors),
            cause: cause,
            raisedAt: CodeLocation(file: file, line: line)))
    }

    /// What kind of failure this is.
    public var code: Code {
        get { parts.code }
        set { parts.code = newValue }
    }
    /// A sentence explaining the failure, free of secrets.
    public var reason: String {
        get { parts.reason }
        set { parts.reason = newValue }
    }
    /// Where the failure happened, as far as it is known.
    public var context: ErrorContext {
        get { parts.context }
        set { parts.context = newValue }
    }
    /// The error this one wraps, if any.
    public var cause: (any Error & Sendable)? {
        get { parts.cause }
        set { parts.cause = newValue }
    }
    /// The ``reason``: a module error's description unless its type says more (the context, a
    /// URL, the OpenSSL queue).
    public var description: String { reason }
    /// Where in Coffer's sources the error was raised: for bug reports, not part of messages.
    public var raisedAt: CodeLocation { parts.raisedAt }

    /// The byte offset into the input, when known (the context's).
    public var offset: Int? {
        get { parts.context.offset }
        set { parts.context.offset = newValue }
    }
    /// The file involved, when there is one (the context's).
    public var path: String? { parts.context.path }
    /// The stored key's name, when there is one (the context's).
    public var key: String? { parts.context.key }
    /// The URL involved, when there is one (the context's).
    public var url: String? { parts.context.url }
    /// The function, system call or step that failed (the context's).
    public var operation: String? { parts.context.operation }
    /// The failing system call's `errno` (the context's).
    public var errno: Int32? { parts.context.errno }
    /// The OpenSSL error queue drained at the failure, oldest entry first (the context's).
    public var openSSLErrors: [String] { parts.context.openSSLErrors }
}
