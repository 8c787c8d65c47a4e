/// Decrypts a CMS EnvelopedData (RFC 5652) or AuthEnvelopedData (RFC 5083) message to an RSA key
/// as its bytes arrive, DER/BER or PEM (`-----BEGIN CMS-----` or `PKCS7`): tells the two apart by
/// the first byte that is not whitespace, unwraps PEM as it streams (``PEMStreamUnwrapper``), and
/// feeds the DER/BER to a ``CMSStreamParser``.
///
/// A value type without locking; DownloadPipeline's CMS decryptor holds one per transfer.
/// Every failure is a ``KeyError``: `.malformed` (not CMS, truncated, bad structure, bad PEM),
/// `.unsupportedEncryption` (another content type, recipient kind or algorithm), `.wrongKey` (no
/// recipient decrypts with the key), `.tampered` (GCM tag or CBC padding wrong), with the byte
/// offset in the payload where known.
package struct CMSMessageDecryptor {
    private enum Encoding {
        case undecided
        case der
        case pem(PEMStreamUnwrapper)
    }

    /// PEM labels `openssl cms -outform PEM` and older PKCS#7 tools write.
    package static let pemLabels = ["CMS", "PKCS7"]

    private var encoding = Encoding.undecided
    private var parser: CMSStreamParser

    /// A decryptor for the recipient whose private key is `key`.
    package init(key: RSAPrivateKey) {
        parser = CMSStreamParser(key: key)
    }

    /// The largest the parser's internal buffer has been, in bytes.
    package var highWaterMark: Int { parser.highWaterMark }

    /// Consumes the next bytes of the message and returns the plaintext ready so far.
    package mutating func update(_ chunk: ArraySlice<UInt8>) throws -> [UInt8] {
        var rest = chunk
        if case .undecided = encoding {
            rest = rest.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            guard let first = rest.first else { return [] }
            encoding = first == UInt8(ascii: "-") ? .pem(PEMStreamUnwrapper(labels: Self.pemLabels)) : .der
        }
        switch encoding {
        case .pem(var unwrapper):
            // The bytes decoded before a PEM error still reach the parser first, so errors come
            // out in payload order however the input is cut into chunks.
            var decoded: [UInt8] = []
            var pemError: (any Error)?
            do { try unwrapper.feed(rest, into: &decoded) } catch { pemError = error }
            encoding = .pem(unwrapper)
            let output = try parser.update(decoded[...])
            if let pemError { throw pemError }
            return output
        default:
            return try parser.update(rest)
        }
    }

    /// Ends the message: checks it is complete (and the GCM tag), returns the last plaintext.
    package mutating func finish() throws -> [UInt8] {
        var output: [UInt8] = []
        switch encoding {
        case .undecided:
            throw KeyError(.malformed, "CMS: the payload is empty", offset: 0)
        case .pem(var unwrapper):
            var decoded: [UInt8] = []
            var pemError: (any Error)?
            do { try unwrapper.finish(into: &decoded) } catch { pemError = error }
            encoding = .pem(unwrapper)
            output = try parser.update(decoded[...])
            if let pemError { throw pemError }
        case .der:
            break
        }
        return output + (try parser.finish())
    }
}
