import ASN1Kit
import AsymmetricKeys

/// Tells, before any verification, whether a file given to `keytool verify` can be the raw
/// signature the key and the options expect, and says what it is when it cannot: empty, an SSHSIG
/// file, PEM, base64 or hex text, a raw r ‖ s ECDSA signature where DER is expected (or the
/// reverse), a signature of the wrong length. Such a file is ``UnreadableSignatureError`` (exit 2);
/// only a well-formed signature that does not match is "does not verify" (exit 1).
enum SignatureFileReader {
    /// Throws ``UnreadableSignatureError`` unless `bytes` has the shape of a signature by `key`
    /// under `scheme`.
    static func check(_ bytes: [UInt8], name: String, key: PublicKey, scheme: SignatureScheme) throws {
        if bytes.isEmpty { throw UnreadableSignatureError(name, "the file is empty") }
        if SSHSignature.isSSHSignature(bytes) {
            throw UnreadableSignatureError(name, "this is an SSHSIG signature (ssh-keygen -Y sign); verify it with --format sshsig --namespace N")
        }
        if let text = textKind(bytes) {
            throw UnreadableSignatureError(name, "the file is \(text), not the signature's raw bytes; decode it first")
        }
        switch (key, scheme) {
        case (.rsa(let rsa), _):
            let size = (rsa.bits + 7) / 8
            guard bytes.count == size else {
                throw UnreadableSignatureError(name, "it has \(bytes.count) bytes; a signature by this \(rsa.bits)-bit RSA key has \(size)")
            }
        case (.ec(let ec), .ecdsa(_, let format)):
            let rawSize = 2 * ec.curve.coordinateSize
            let derError: KeyError?
            do {
                _ = try ECDSASignatureFormat.raw(fromDER: bytes, curve: ec.curve)
                derError = nil
            } catch let error as KeyError {
                derError = error
            }
            if format == .der, let derError {
                if bytes.count == rawSize {
                    throw UnreadableSignatureError(name, "it is not DER but has \(bytes.count) bytes, the size of a raw r ‖ s \(ec.curve.rawValue) signature; give --signature-format raw")
                }
                throw UnreadableSignatureError(name, "it is not a DER ECDSA signature (\(derError.reason))")
            }
            if format == .raw, bytes.count != rawSize {
                if derError == nil {
                    throw UnreadableSignatureError(name, "it is a DER ECDSA signature, not raw r ‖ s; drop --signature-format raw")
                }
                throw UnreadableSignatureError(name, "it has \(bytes.count) bytes; a raw r ‖ s \(ec.curve.rawValue) signature has \(rawSize)")
            }
        case (.octet(let octet), _):
            let size = octet.algorithm == .ed448 ? 114 : 64
            if octet.algorithm.isSignature, bytes.count != size {
                throw UnreadableSignatureError(name, "it has \(bytes.count) bytes; an \(octet.algorithm.displayName) signature has \(size)")
            }
        default:
            break
        }
    }

    /// `PEM text (-----BEGIN …)`, `hex text (N digits)` or `base64 text (N characters)` when the
    /// whole file is text of that kind; `nil` otherwise.
    static func textKind(_ bytes: [UInt8]) -> String? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        let content = bytes.filter { !isSpace($0) }
        guard !content.isEmpty else { return "only whitespace" }
        if bytes.drop(while: isSpace).starts(with: Array("-----BEGIN ".utf8)) { return "PEM text (-----BEGIN …)" }
        func isHex(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
        }
        if content.count % 2 == 0, content.allSatisfy(isHex) { return "hex text (\(content.count) digits)" }
        func isBase64(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        if content.count >= 8, content.allSatisfy(isBase64), (try? Base64.decode(content)) != nil || content.contains(UInt8(ascii: "-")) || content.contains(UInt8(ascii: "_")) {
            return "base64 text (\(content.count) characters)"
        }
        return nil
    }
}
