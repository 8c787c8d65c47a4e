import AsymmetricKeys

/// Decrypts CMS EnvelopedData (RFC 5652) and AuthEnvelopedData (RFC 5083) as `openssl cms -encrypt`
/// writes them, DER or PEM (`-----BEGIN CMS-----` or `PKCS7`), streaming or not: RSA key transport
/// (PKCS#1 v1.5 or RSAES-OAEP) and AES-128/192/256 in CBC or GCM mode.
///
/// The content is decrypted as it arrives, with only the structure around it buffered, so memory
/// stays flat in the payload size. With AES-GCM, plaintext is handed out before the tag (which
/// follows the content) is checked: ``DecryptionStream/finish()`` throws `.tampered` when it does
/// not match, and the caller must then discard what it received. The whole-body
/// ``decrypt(_:response:)`` returns nothing unless the tag matches.
public struct CMSDecryptor: StreamingDecryptor {
    /// The recipient's private key.
    public let key: RSAPrivateKey
    private let fingerprint: String

    /// Creates the decryptor for the recipient whose private key is `key`.
    public init(key: RSAPrivateKey) {
        self.key = key
        self.fingerprint = key.publicKey.fingerprintSHA256
    }

    /// `cms:` and the key's SHA256 fingerprint.
    public var identity: String { "\(DecryptionScheme.cms.rawValue):\(fingerprint)" }

    /// Decrypts a whole message.
    ///
    /// - Throws: ``DecryptionError`` `.malformedPayload` (not CMS, truncated, bad structure),
    ///   `.wrongKey` (no recipient decrypts with the key), `.tampered` (tag or padding wrong),
    ///   `.unsupported` (another content type, recipient kind or algorithm).
    public func decrypt(_ data: [UInt8], response: DownloadResponse) async throws -> [UInt8] {
        try decrypt(data)
    }

    /// The synchronous body of ``decrypt(_:response:)``: feeds the message in slices so the
    /// buffering stays as small as when streaming.
    func decrypt(_ data: [UInt8]) throws -> [UInt8] {
        let stream = CMSDecryptionStream(key: key)
        var output: [UInt8] = []
        output.reserveCapacity(data.count)
        var start = data.startIndex
        repeat {
            let end = min(start + 256 * 1024, data.endIndex)
            output += try stream.update(data[start..<end])
            start = end
        } while start < data.endIndex
        output += try stream.finish()
        return output
    }

    /// A fresh stream for one response.
    public func makeStream(response: DownloadResponse) throws -> any DecryptionStream {
        CMSDecryptionStream(key: key)
    }
}
