/// Turns the downloaded bytes into the bytes the caller wants: the pipeline's decryption hook.
///
/// A decryptor sees the whole body and the response (so it can choose by `Content-Type` or a
/// header). Formats that can be decrypted as they arrive also conform to ``StreamingDecryptor``,
/// and the pipeline then never holds the whole ciphertext in memory.
public protocol Decryptor: Sendable {
    /// Identifies the decryptor and its parameters (including which key, e.g. by fingerprint, never
    /// by key material). Requests are coalesced only when their decryptors' identities are equal.
    var identity: String { get }

    /// Decrypts a whole body.
    ///
    /// - Throws: ``DecryptionError`` with a reason that never contains plaintext or key bytes.
    func decrypt(_ data: [UInt8], response: DownloadResponse) async throws -> [UInt8]
}

/// A decryptor that can work on the body as it streams in.
public protocol StreamingDecryptor: Decryptor {
    /// A fresh stream for one response.
    func makeStream(response: DownloadResponse) throws -> any DecryptionStream
}

/// Decrypts one body chunk by chunk. Used by one transfer at a time.
public protocol DecryptionStream: AnyObject, Sendable {
    /// Consumes the next chunk of ciphertext and returns the plaintext that is ready (possibly none).
    func update(_ chunk: ArraySlice<UInt8>) throws -> [UInt8]
    /// Ends the stream: returns the remaining plaintext, or throws when the ciphertext was truncated
    /// or fails authentication.
    func finish() throws -> [UInt8]
}

/// Why decryption failed: one error type for every decryptor.
public struct DecryptionError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Code: String, Sendable, Hashable {
        /// The payload is not in the format the decryptor expects (bad CMS, bad base64, wrong length).
        case malformedPayload
        /// The key does not fit: no recipient matches, or the key cannot decrypt the key transport.
        case wrongKey
        /// Authentication failed or padding was wrong: the data was altered (or the key is wrong).
        case tampered
        /// The payload uses an algorithm Coffer does not support.
        case unsupported
        /// `auto` could not tell the scheme.
        case unknownScheme
    }

    public var code: Code
    public var reason: String
    /// Byte offset in the payload, when known.
    public var offset: Int?

    public init(_ code: Code, _ reason: String, offset: Int? = nil) {
        self.code = code
        self.reason = reason
        self.offset = offset
    }

    public var description: String { reason }

    public static func == (lhs: DecryptionError, rhs: DecryptionError) -> Bool { lhs.code == rhs.code }
}
