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
