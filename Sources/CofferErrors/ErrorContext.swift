/// Where an error happened: the part of a Coffer error that locates the failure.
///
/// Every field is optional; an error fills in what it knows. The byte offset is counted from the
/// start of the input the failing call was given (a DER document, a key file, a store's data file,
/// a downloaded payload). Nothing here is secret: no key bytes, passphrases, stored values or
/// header values.
public struct ErrorContext: Sendable, Hashable, CustomStringConvertible {
    /// The byte offset into the input where the problem starts.
    public var offset: Int?
    /// The file the failure concerns.
    public var path: String?
    /// The name of the stored key involved (a key-value store's key, never key material).
    public var key: String?
    /// The URL involved.
    public var url: String?
    /// The operation that failed: an OpenSSL function (`EVP_DecryptFinal_ex`), a system call
    /// (`open`, `mmap`) or a named step (`rekey`).
    public var operation: String?
    /// The `errno` the failing system call reported.
    public var errno: Int32?
    /// The OpenSSL error queue as it was drained when the failure was detected, oldest entry first.
    public var openSSLErrors: [String]

    /// Creates a context; every field defaults to unknown.
    ///
    /// - Parameters:
    ///   - offset: The byte offset into the input.
    ///   - path: The file involved.
    ///   - key: The stored key's name.
    ///   - url: The URL involved.
    ///   - operation: The function, system call or step that failed.
    ///   - errno: The system call's `errno`.
    ///   - openSSLErrors: The drained OpenSSL error queue.
    public init(
        offset: Int? = nil, path: String? = nil, key: String? = nil, url: String? = nil,
        operation: String? = nil, errno: Int32? = nil, openSSLErrors: [String] = []
    ) {
        self.offset = offset
        self.path = path
        self.key = key
        self.url = url
        self.operation = operation
        self.errno = errno
        self.openSSLErrors = openSSLErrors
    }

    /// Whether no field is known.
    public var isEmpty: Bool { items.isEmpty }

    /// The known fields, comma-separated: `path P, offset N, key "K", url U, operation O, errno E,
    /// OpenSSL: entry; entry`. Empty when nothing is known.
    public var description: String { items.joined(separator: ", ") }

    private var items: [String] {
        var items: [String] = []
        if let path { items.append("path \(path)") }
        if let offset { items.append("offset \(offset)") }
        if let key { items.append("key \"\(key)\"") }
        if let url { items.append("url \(url)") }
        if let operation { items.append("operation \(operation)") }
        if let errno { items.append("errno \(errno)") }
        if !openSSLErrors.isEmpty { items.append("OpenSSL: " + openSSLErrors.joined(separator: "; ")) }
        return items
    }
}
