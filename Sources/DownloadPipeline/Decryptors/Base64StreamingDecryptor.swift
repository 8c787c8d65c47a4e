/// A base64 wrapper in front of a streaming decryptor: decodes each chunk as it arrives and feeds
/// the bytes to the inner stream, so the pair still streams.
public struct Base64StreamingDecryptor: StreamingDecryptor {
    /// The decryptor that receives the decoded bytes.
    public let inner: any StreamingDecryptor

    /// Wraps `inner`.
    public init(wrapping inner: any StreamingDecryptor) {
        self.inner = inner
    }

    /// `base64+` and the inner decryptor's identity (the same as ``Base64Decryptor``'s).
    public var identity: String { "base64+" + inner.identity }

    /// Decodes the base64 text and decrypts the result with the inner decryptor.
    ///
    /// - Throws: as ``Base64Decryptor/decrypt(_:response:)``.
    public func decrypt(_ data: [UInt8], response: DownloadResponse) async throws -> [UInt8] {
        try await inner.decrypt(Base64Decryptor.decode(data), response: response)
    }

    /// A stream that decodes base64 and feeds the inner decryptor's stream.
    public func makeStream(response: DownloadResponse) throws -> any DecryptionStream {
        Base64DecodingStream(inner: try inner.makeStream(response: response))
    }
}
