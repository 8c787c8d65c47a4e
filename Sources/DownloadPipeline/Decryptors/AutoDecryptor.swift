import ASN1Kit
import AsymmetricKeys
import CofferErrors
import Synchronization

/// The `auto` scheme: CMS when the payload is a CMS ContentInfo holding (Auth)EnvelopedData, DER
/// or PEM; otherwise ``DecryptionError`` `.unknownScheme`, because chunked RSA and a random body
/// look alike and guessing would turn garbage into "plaintext".
public struct AutoDecryptor: StreamingDecryptor {
    /// The recipient's private key.
    public let key: RSAPrivateKey
    private let cms: CMSDecryptor

    /// Creates the decryptor.
    public init(key: RSAPrivateKey) {
        self.key = key
        self.cms = CMSDecryptor(key: key)
    }

    /// `auto:` and the key's SHA256 fingerprint.
    public var identity: String { "\(DecryptionScheme.auto.rawValue):\(key.publicKey.fingerprintSHA256)" }

    /// Decrypts a CMS payload.
    ///
    /// - Throws: ``DecryptionError`` `.unknownScheme` when the payload is not CMS, otherwise what
    ///   ``CMSDecryptor`` throws.
    public func decrypt(_ data: [UInt8], response: DownloadResponse) async throws -> [UInt8] {
        switch Self.sniff(data[...], isComplete: true) {
        case .cms: return try cms.decrypt(data)
        default: throw Self.unknownScheme
        }
    }

    /// A stream that looks at the first bytes, then behaves as ``CMSDecryptor``'s.
    public func makeStream(response: DownloadResponse) throws -> any DecryptionStream {
        AutoDecryptionStream(cms: cms)
    }

    static let unknownScheme = DecryptionError(.unknownScheme, "auto: the payload is not CMS (DER or PEM), and no other scheme can be told from its bytes: name the scheme it was encrypted with", offset: 0)

    enum Verdict: Equatable {
        case cms
        case other
        case needMore
    }

    /// The most bytes looked at before deciding.
    static let sniffLimit = 256

    /// Whether `bytes` starts like CMS: `-----BEGIN CMS-----`/`PKCS7` after optional whitespace, or
    /// a SEQUENCE (any length form) whose first element is the OID id-envelopedData or
    /// id-ct-authEnvelopedData.
    static func sniff(_ bytes: ArraySlice<UInt8>, isComplete: Bool) -> Verdict {
        let text = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = text.first else { return isComplete || bytes.count >= sniffLimit ? .other : .needMore }
        if first == UInt8(ascii: "-") {
            var sawPrefix = false
            for label in CMSMessageDecryptor.pemLabels {
                let begin = Array("-----BEGIN \(label)-----".utf8)
                if text.starts(with: begin) { return .cms }
                if begin.starts(with: text) { sawPrefix = true }
            }
            return sawPrefix && !isComplete ? .needMore : .other
        }
        guard first == 0x30 else { return .other }
        let prefixes: [[UInt8]] = [ASN1ObjectIdentifier.cmsEnvelopedData, .cmsAuthEnvelopedData].map {
            [0x06, UInt8($0.encoded.count)] + $0.encoded
        }
        // SEQUENCE header: 0x30, then a short, long (up to 4 octets) or indefinite length.
        guard text.count >= 2 else { return isComplete ? .other : .needMore }
        let lengthByte = text[text.startIndex + 1]
        let headerLength = lengthByte > 0x80 ? 2 + Int(lengthByte & 0x7F) : 2
        guard headerLength <= 6 else { return .other }
        let body = text.dropFirst(headerLength)
        for prefix in prefixes {
            if body.starts(with: prefix) { return .cms }
            if !isComplete && body.count < prefix.count && prefix.starts(with: body) { return .needMore }
        }
        return .other
    }
}

/// Buffers the first bytes until ``AutoDecryptor/sniff(_:isComplete:)`` decides, then hands
/// everything to a CMS stream.
final class AutoDecryptionStream: DecryptionStream {
    private struct State {
        var head: [UInt8] = []
        var decided = false
    }

    private let cmsStream: CMSDecryptionStream
    private let state = Mutex(State())

    init(cms: CMSDecryptor) {
        self.cmsStream = CMSDecryptionStream(key: cms.key)
    }

    func update(_ chunk: ArraySlice<UInt8>) throws -> [UInt8] {
        let pending: ArraySlice<UInt8>? = try state.withLock { state in
            if state.decided { return chunk }
            state.head += chunk
            switch AutoDecryptor.sniff(state.head[...], isComplete: false) {
            case .needMore: return nil
            case .other: throw AutoDecryptor.unknownScheme
            case .cms:
                state.decided = true
                defer { state.head = [] }
                return state.head[...]
            }
        }
        guard let pending else { return [] }
        return try cmsStream.update(pending)
    }

    func finish() throws -> [UInt8] {
        let pending: ArraySlice<UInt8>? = try state.withLock { state in
            if state.decided { return nil }
            guard AutoDecryptor.sniff(state.head[...], isComplete: true) == .cms else { throw AutoDecryptor.unknownScheme }
            state.decided = true
            return state.head[...]
        }
        var output: [UInt8] = []
        if let pending { output = try cmsStream.update(pending) }
        return output + (try cmsStream.finish())
    }
}
