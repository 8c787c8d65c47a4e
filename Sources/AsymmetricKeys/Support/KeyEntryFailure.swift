/// One entry of a multi-entry file (a PEM bundle, an `authorized_keys` or `known_hosts` file, a
/// JWK Set, a PKCS#12 or PKCS#7 file) that could not be read, with where it is and why; the other
/// entries of the file are read all the same.
public struct KeyEntryFailure: Error, Sendable {
    /// Where the entry is, for people: `line 3`, `PEM block 2 ('CERTIFICATE') at offset 1207`,
    /// `key 4 of the JWK Set`, `bag 2 of the PKCS#12 file`.
    public var location: String
    /// The entry's 1-based line, for line-oriented files.
    public var line: Int?
    /// The byte offset of the entry's start in the file, where known.
    public var offset: Int?
    /// Why it could not be read.
    public var error: KeyError
    /// Whether the format tells readers to skip such an entry (a JWK Set's key of a `kty` or
    /// curve the reader does not use, RFC 7517 §5): it is reported, but it does not make the
    /// reading of the file a failure.
    public var isSkippedByRule: Bool

    public init(location: String, line: Int? = nil, offset: Int? = nil, error: KeyError, isSkippedByRule: Bool = false) {
        self.location = location
        self.line = line
        self.offset = offset
        self.error = error
        self.isSkippedByRule = isSkippedByRule
    }

    /// The error with the entry's location before its reason (`line 3: reason`), as one error
    /// for a caller that reports the whole file.
    public var located: KeyError {
        var error = self.error
        error.reason = "\(location): \(error.reason)"
        return error
    }
}
