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
        self.init(
            code, reason,
            context: ErrorContext(
                offset: offset, path: path, key: key, url: url,
                operation: operation, errno: errno, openSSLErrors: openSSLErrors),
            cause: cause,
            raisedAt: CodeLocation(file: file, line: line))
    }
}
