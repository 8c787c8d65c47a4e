import ASN1Kit
import CofferErrors

/// Strips a base64 wrapper, then hands the bytes to another decryptor.
///
/// Accepts what servers actually send: the standard and the URL-safe alphabets, padding or none,
/// line breaks, several base64 blocks one after the other (each ended by its padding), and any
/// byte outside the alphabets (whitespace, quotes, commas, a JSON string's escapes) skipped.
///
/// Wrapping a ``StreamingDecryptor`` gives a streaming decryptor: each chunk is decoded as it arrives
/// and fed to the inner stream, so the pair still streams.
public struct Base64Decryptor<Inner: Decryptor>: Decryptor {
    /// The decryptor that receives the decoded bytes.
    public let inner: Inner

    /// Wraps `inner`.
    public init(wrapping inner: Inner) {
        self.inner = inner
    }

    /// `base64+` and the inner decryptor's identity.
    public var identity: String { "base64+" + inner.identity }

    /// Decodes the base64 text and decrypts the result with the inner decryptor.
    ///
    /// - Throws: ``DecryptionError`` `.malformedPayload` when the text decodes to nothing or ends
    ///   in a lone character (bits that make no byte); whatever the inner decryptor throws.
    public func decrypt(_ data: [UInt8], response: DownloadResponse) async throws -> [UInt8] {
        try await inner.decrypt(Base64StreamDecoder.wholePayload(data), response: response)
    }
}

extension Base64Decryptor: StreamingDecryptor where Inner: StreamingDecryptor {
    /// A stream that decodes base64 and feeds the inner decryptor's stream.
    public func makeStream(response: DownloadResponse) throws -> any DecryptionStream {
        Base64DecodingStream(inner: try inner.makeStream(response: response))
    }
}
