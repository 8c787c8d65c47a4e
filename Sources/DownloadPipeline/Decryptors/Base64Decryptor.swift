import ASN1Kit
import CofferErrors

/// Strips a base64 wrapper, then hands the bytes to another decryptor.
///
/// Accepts what servers actually send: the standard and the URL-safe alphabets, padding or none,
/// line breaks, several base64 blocks one after the other (each ended by its padding), and any
/// byte outside the alphabets (whitespace, quotes, commas, a JSON string's escapes) skipped.
public struct Base64Decryptor: Decryptor {
    /// The decryptor that receives the decoded bytes.
    public let inner: any Decryptor

    /// Wraps `inner`.
    public init(wrapping inner: any Decryptor) {
        self.inner = inner
    }

    /// `base64+` and the inner decryptor's identity.
    public var identity: String { "base64+" + inner.identity }

    /// Decodes the base64 text and decrypts the result with the inner decryptor.
    ///
    /// - Throws: ``DecryptionError`` `.malformedPayload` when the text decodes to nothing or ends
    ///   in a lone character (bits that make no byte); whatever the inner decryptor throws.
    public func decrypt(_ data: [UInt8], response: DownloadResponse) async throws -> [UInt8] {
        try await inner.decrypt(Self.decode(data), response: response)
    }

    /// Decodes a whole wrapper leniently.
    static func decode(_ text: [UInt8]) throws -> [UInt8] {
        var decoder = Base64StreamDecoder(mode: .lenient)
        var output: [UInt8] = []
        try decoder.decodePayload(text[...], into: &output)
        try decoder.finishPayload(into: &output)
        guard !output.isEmpty else {
            throw DecryptionError(.malformedPayload, "base64: the body of \(text.count) bytes holds no base64 data")
        }
        return output
    }
}

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
