import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// Parses a DER or BER CMS message as its bytes arrive and decrypts the content as it streams.
///
/// ```
/// ContentInfo ::= SEQUENCE {
///     contentType ContentType,                 -- id-envelopedData or id-ct-authEnvelopedData
///     content [0] EXPLICIT ANY DEFINED BY contentType }
///
/// EnvelopedData ::= SEQUENCE {                 -- RFC 5652 §6.1
///     version CMSVersion,
///     originatorInfo [0] IMPLICIT OriginatorInfo OPTIONAL,
///     recipientInfos RecipientInfos,
///     encryptedContentInfo EncryptedContentInfo,
///     unprotectedAttrs [1] IMPLICIT UnprotectedAttributes OPTIONAL }
///
/// AuthEnvelopedData ::= SEQUENCE {             -- RFC 5083 §2.1
///     version CMSVersion,
///     originatorInfo [0] IMPLICIT OriginatorInfo OPTIONAL,
///     recipientInfos RecipientInfos,
///     authEncryptedContentInfo EncryptedContentInfo,
///     authAttrs [1] IMPLICIT AuthAttributes OPTIONAL,
///     mac MessageAuthenticationCode,           -- the GCM tag, AFTER the content
///     unauthAttrs [2] IMPLICIT UnauthAttributes OPTIONAL }
///
/// EncryptedContentInfo ::= SEQUENCE {
///     contentType ContentType,
///     contentEncryptionAlgorithm ContentEncryptionAlgorithmIdentifier,
///     encryptedContent [0] IMPLICIT EncryptedContent OPTIONAL }   -- primitive, or constructed chunks
/// ```
///
/// Everything before the encrypted content (at most ``maximumHeaderSize`` bytes) and everything
/// after it (the attributes and the MAC) is buffered; the content itself never is: each piece is
/// decrypted as soon as it arrives.
///
/// The framing is lenient BER on purpose, read with ASN1Kit's incremental header reader
/// (`ASN1StreamHeader`): `openssl cms -encrypt -stream` (and any streaming CMS writer) uses the
/// indefinite length form for ContentInfo, the enveloped data and the encrypted content, and cuts
/// the content into a constructed OCTET STRING. Complete inner values are parsed with `DERReader`
/// in `ASN1ParsingOptions.lenientBER` mode for the same reason.
package struct CMSStreamParser {
    /// One value's identifier and length octets: `length` is `nil` for the indefinite form.
    typealias Header = (tag: ASN1Tag, headerLength: Int, length: Int?)

    /// The largest declared length accepted (2 TiB), far above any real download.
    static let maximumValueLength = Int(Int32.max) * 1024

    /// The most bytes buffered while looking for the encrypted content or reading what follows it.
    package static let maximumHeaderSize = 1 << 20
    /// How many bytes of input are moved into the buffer at a time in the structured phases.
    package static let feedSize = 16 * 1024
    /// How deeply constructed OCTET STRINGs may nest inside the encrypted content.
    static let maximumChunkNesting = 8

    private enum Kind {
        case enveloped
        case authEnveloped

        var name: String { self == .enveloped ? "EnvelopedData" : "AuthEnvelopedData" }
    }

    /// One open constructed value: where it ends (definite length) or `nil` (indefinite).
    private struct Frame {
        var end: Int?
        var name: String
    }

    private enum Phase {
        case contentInfo
        case contentType
        case explicitContent
        case envelopedData
        case version
        case recipientInfos(originatorSeen: Bool)
        case encryptedContentInfo
        case innerContentType
        case contentAlgorithm
        case encryptedContent
        case contentBytes(remaining: Int, inChunks: Bool)
        case contentChunks
        case endOfEncryptedContentInfo
        case trailer(stage: Int)
        case closing
        case done

        var what: String {
            switch self {
            case .contentInfo: "the ContentInfo"
            case .contentType: "the content type"
            case .explicitContent, .envelopedData: "the enveloped data"
            case .version: "the version"
            case .recipientInfos: "the recipient infos"
            case .encryptedContentInfo, .innerContentType, .contentAlgorithm: "the encrypted content info"
            case .encryptedContent, .contentBytes, .contentChunks: "the encrypted content"
            case .endOfEncryptedContentInfo: "the end of the encrypted content info"
            case .trailer: "the attributes or MAC after the content"
            case .closing: "the end-of-contents octets"
            case .done: "the end"
            }
        }
    }

    private let key: RSAPrivateKey
    private var buffer: [UInt8] = []
    /// Index in `buffer` of the next unread byte.
    private var cursor = 0
    /// Payload offset of `buffer[0]`.
    private var base = 0
    private var frames: [Frame] = []
    private var phase = Phase.contentInfo
    private var kind = Kind.enveloped
    private var recipients: [CMSKeyTransRecipient] = []
    private var otherRecipients = 0
    private var encryption: CMSContentEncryption?
    private var cipher: CipherStream?
    /// Number of frames open when the constructed encrypted content began (its own frame included).
    private var chunkDepth = 0
    private var mac: [UInt8]?
    /// The plaintext of the current call: its first `outputCount` bytes are valid, the rest is room.
    private var output: [UInt8] = []
    private var outputCount = 0
    /// The buffer size at which an incomplete indefinite-length value is walked again.
    private var indefiniteRetryAt = 0
    /// Set by ``finish()``: no more input will come, so incomplete values are walked regardless.
    private var isFinishing = false
    /// The largest the internal buffer has been, in bytes (for the bounded-memory tests).
    private(set) var highWaterMark = 0
    /// Plaintext bytes produced so far.
    private(set) var plaintextCount = 0

    init(key: RSAPrivateKey) {
        self.key = key
    }

    /// The payload offset of the next unread byte.
    private var position: Int { base + cursor }
    private var available: Int { buffer.count - cursor }

    // MARK: Input

    /// Consumes a chunk of the DER/BER message and returns the plaintext ready so far.
    mutating func update(_ chunk: ArraySlice<UInt8>) throws -> [UInt8] {
        var input = chunk
        // Room for the plaintext of this chunk, so the cipher writes it in place.
        output = [UInt8](repeating: 0, count: chunk.count + 32)
        outputCount = 0
        while true {
            try run()
            if case .contentBytes(let remaining, let inChunks) = phase, available == 0, !input.isEmpty {
                // The content arrives straight from the input, never through the buffer.
                let count = min(remaining, input.count)
                try decryptContent(input.prefix(count))
                base += count
                input = input.dropFirst(count)
                phase = remaining == count ? (inChunks ? .contentChunks : .endOfEncryptedContentInfo) : .contentBytes(remaining: remaining - count, inChunks: inChunks)
                continue
            }
            if input.isEmpty { break }
            if case .done = phase {
                throw KeyError(.malformed, "CMS: \(input.count) bytes of trailing data at offset \(position) after the message", offset: position)
            }
            // Between content chunks only a header is expected: move just a few bytes, so the
            // chunk's content comes straight from the input.
            var feed = Self.feedSize
            if case .contentChunks = phase { feed = 16 }
            let count = min(input.count, feed)
            compact()
            guard available + count <= Self.maximumHeaderSize + Self.feedSize else {
                throw KeyError(.malformed, "CMS: more than \(Self.maximumHeaderSize) bytes of structure at offset \(position) without reaching \(phase.what)", offset: position)
            }
            buffer.append(contentsOf: input.prefix(count))
            input = input.dropFirst(count)
            highWaterMark = max(highWaterMark, buffer.count)
        }
        return takeOutput()
    }

    /// Ends the message: checks it is complete, checks the GCM tag, returns the last plaintext.
    ///
    /// - Throws: ``KeyError`` `.malformed` when the message is truncated, `.tampered`
    ///   when the tag or the CBC padding is wrong.
    mutating func finish() throws -> [UInt8] {
        isFinishing = true
        try run()
        guard case .done = phase, let cipher else {
            throw KeyError(.malformed, "CMS: the payload ends at offset \(position) inside \(phase.what) (truncated)", offset: position)
        }
        var result = takeOutput()
        do {
            if let mac { try cipher.setExpectedTag(mac) }
            let last = try cipher.finish()
            plaintextCount += last.count
            result += last
        } catch let error as CryptoError {
            throw KeyError.cms(error, what: "CMS \(kind.name)")
        }
        return result
    }

    private mutating func compact() {
        if cursor == buffer.count {
            base += cursor
            cursor = 0
            buffer.removeAll(keepingCapacity: true)
        } else if cursor >= Self.feedSize {
            base += cursor
            buffer.removeSubrange(0..<cursor)
            cursor = 0
        }
    }

    // MARK: Steps

    /// Runs steps until one needs more input.
    private mutating func run() throws {
        while try step() {}
    }

    /// One step of the parse; `false` when more input is needed.
    private mutating func step() throws -> Bool {
        switch phase {
        case .contentInfo:
            guard try open(.sequence, "ContentInfo") else { return false }
            phase = .contentType
        case .contentType:
            guard let (element, offset) = try readElement() else { return false }
            let type = try decode("the ContentInfo content type", element, offset) { try $0.readObjectIdentifier() }
            switch type {
            case .cmsEnvelopedData: kind = .enveloped
            case .cmsAuthEnvelopedData: kind = .authEnveloped
            default:
                throw KeyError(.unsupportedEncryption, "CMS: the ContentInfo holds \(type.name ?? type.dotted), not enveloped data", offset: offset)
            }
            phase = .explicitContent
        case .explicitContent:
            guard try open(.context(0, constructed: true), "the [0] content") else { return false }
            phase = .envelopedData
        case .envelopedData:
            guard try open(.sequence, kind.name) else { return false }
            phase = .version
        case .version:
            guard let (element, offset) = try readElement() else { return false }
            let version = try decode("the \(kind.name) version", element, offset) { try $0.readInteger(as: Int.self) }
            guard (0...4).contains(version), kind == .enveloped || version == 0 else {
                throw KeyError(.malformed, "CMS: \(kind.name) version \(version) is invalid", offset: offset)
            }
            phase = .recipientInfos(originatorSeen: false)
        case .recipientInfos(let originatorSeen):
            guard let header = try peekHeader() else { return false }
            if !originatorSeen && header.tag == .context(0, constructed: true) {
                guard try readElement() != nil else { return false }
                phase = .recipientInfos(originatorSeen: true)
                return true
            }
            try expect(header, .set, "RecipientInfos")
            guard let (element, offset) = try readElement() else { return false }
            (recipients, otherRecipients) = try CMSKeyTransRecipient.decodeAll(element, offset: offset)
            phase = .encryptedContentInfo
        case .encryptedContentInfo:
            guard try open(.sequence, "EncryptedContentInfo") else { return false }
            phase = .innerContentType
        case .innerContentType:
            guard let (element, offset) = try readElement() else { return false }
            _ = try decode("the encrypted content type", element, offset) { try $0.readObjectIdentifier() }
            phase = .contentAlgorithm
        case .contentAlgorithm:
            guard let header = try peekHeader() else { return false }
            try expect(header, .sequence, "the content-encryption algorithm")
            guard let (element, offset) = try readElement() else { return false }
            let encryption = try CMSContentEncryption(decoding: element, offset: offset)
            guard (encryption.tagLength != nil) == (kind == .authEnveloped) else {
                throw KeyError(.unsupportedEncryption, "CMS: \(kind.name) with \(encryption.cipher.rawValue) is not supported (AES-CBC goes in EnvelopedData, AES-GCM in AuthEnvelopedData)", offset: offset)
            }
            self.encryption = encryption
            try startCipher(encryption, offset: offset)
            phase = .encryptedContent
        case .encryptedContent:
            guard let atEnd = try atFrameEnd() else { return false }
            guard !atEnd else {
                throw KeyError(.unsupportedEncryption, "CMS: the encrypted content is detached (not in the message)", offset: position)
            }
            guard let header = try peekHeader() else { return false }
            guard header.tag.tagClass == .contextSpecific, header.tag.number == 0 else {
                throw KeyError(.malformed, "CMS: expected the [0] encrypted content at offset \(position), found \(header.tag.name)", offset: position)
            }
            let end = header.length.map { position + header.headerLength + $0 }
            cursor += header.headerLength
            if header.tag.isConstructed {
                frames.append(Frame(end: end, name: "the encrypted content"))
                chunkDepth = frames.count
                phase = .contentChunks
            } else {
                phase = .contentBytes(remaining: header.length!, inChunks: false)
            }
        case .contentBytes(let remaining, let inChunks):
            guard remaining > 0 else {
                phase = inChunks ? .contentChunks : .endOfEncryptedContentInfo
                return true
            }
            let count = min(remaining, available)
            guard count > 0 else { return false }
            try decryptContent(buffer[cursor..<cursor + count])
            cursor += count
            phase = .contentBytes(remaining: remaining - count, inChunks: inChunks)
        case .contentChunks:
            guard let atEnd = try atFrameEnd() else { return false }
            if atEnd {
                guard try close() else { return false }
                if frames.count < chunkDepth { phase = .endOfEncryptedContentInfo }
                return true
            }
            guard let header = try peekHeader() else { return false }
            guard header.tag.tagClass == .universal, header.tag.number == ASN1Tag.octetString.number else {
                throw KeyError(.malformed, "CMS: expected an OCTET STRING chunk of the encrypted content at offset \(position), found \(header.tag.name)", offset: position)
            }
            let end = header.length.map { position + header.headerLength + $0 }
            cursor += header.headerLength
            if header.tag.isConstructed {
                guard frames.count - chunkDepth < Self.maximumChunkNesting else {
                    throw KeyError(.malformed, "CMS: the encrypted content nests more than \(Self.maximumChunkNesting) levels deep at offset \(position)", offset: position)
                }
                frames.append(Frame(end: end, name: "a chunk of the encrypted content"))
            } else {
                phase = .contentBytes(remaining: header.length!, inChunks: true)
            }
        case .endOfEncryptedContentInfo:
            guard try close() else { return false }
            phase = .trailer(stage: 0)
        case .trailer(let stage):
            return try stepTrailer(stage: stage)
        case .closing:
            if frames.isEmpty {
                phase = .done
                return true
            }
            guard try close() else { return false }
        case .done:
            guard available == 0 else {
                throw KeyError(.malformed, "CMS: \(available) bytes of trailing data at offset \(position) after the message", offset: position)
            }
            return false
        }
        return true
    }

    /// After the encrypted content: EnvelopedData's optional unprotectedAttrs; AuthEnvelopedData's
    /// optional authAttrs, the MAC, optional unauthAttrs. `stage` counts what was read.
    private mutating func stepTrailer(stage: Int) throws -> Bool {
        guard let atEnd = try atFrameEnd() else { return false }
        if atEnd {
            guard kind == .enveloped || mac != nil else {
                throw KeyError(.malformed, "CMS: AuthEnvelopedData ends at offset \(position) without its MAC", offset: position)
            }
            guard try close() else { return false }
            phase = .closing
            return true
        }
        guard let header = try peekHeader() else { return false }
        let offset = position
        switch (kind, stage, header.tag) {
        case (.enveloped, 0, .context(1, constructed: true)):
            guard try readElement() != nil else { return false }
            phase = .trailer(stage: 1)
        case (.authEnveloped, 0, .context(1, constructed: true)):
            // The GCM additional data would be these attributes, but they arrive after the content
            // the cipher has already consumed; `openssl cms` never writes them.
            throw KeyError(.unsupportedEncryption, "CMS: AuthEnvelopedData with authenticated attributes is not supported", offset: offset)
        case (.authEnveloped, 0, .octetString):
            guard let (element, elementOffset) = try readElement() else { return false }
            let tag = try decode("the MAC", element, elementOffset) { Array(try $0.readOctetString()) }
            guard tag.count == encryption?.tagLength else {
                throw KeyError(.malformed, "CMS: the MAC has \(tag.count) bytes, the algorithm says \(encryption?.tagLength ?? 0)", offset: offset)
            }
            mac = tag
            phase = .trailer(stage: 1)
        case (.authEnveloped, 1, .context(2, constructed: true)):
            guard try readElement() != nil else { return false }
            phase = .trailer(stage: 2)
        default:
            throw KeyError(.malformed, "CMS: unexpected \(header.tag.name) at offset \(offset) after the encrypted content of the \(kind.name)", offset: offset)
        }
        return true
    }

    // MARK: Content

    private mutating func startCipher(_ encryption: CMSContentEncryption, offset: Int) throws {
        guard !recipients.isEmpty else {
            throw KeyError(.unsupportedEncryption, "CMS: the message has \(otherRecipients) recipient(s), none of them RSA key transport (the only kind Coffer supports)", offset: offset)
        }
        let fingerprint = key.publicKey.fingerprintSHA256
        for recipient in recipients {
            guard var contentKey = recipient.unwrap(with: key) else { continue }
            defer { SecureMemory.zero(&contentKey) }
            guard contentKey.count == encryption.cipher.keySize else { continue }
            do {
                cipher = try CipherStream(cipher: encryption.cipher, key: contentKey, iv: encryption.iv, decrypting: true)
            } catch let error as CryptoError {
                throw KeyError.cms(error, what: "CMS content decryption")
            }
            return
        }
        throw KeyError(.wrongKey, "CMS: none of the \(recipients.count) key-transport recipient(s) decrypts with the key \(fingerprint)")
    }

    /// Decrypts `bytes` straight into `output` after its `outputCount` bytes.
    private mutating func decryptContent(_ bytes: ArraySlice<UInt8>) throws {
        guard let cipher, !bytes.isEmpty else { return }
        let capacity = cipher.outputCapacity(forInputCount: bytes.count)
        let room = output.count - outputCount
        if room < capacity { output += [UInt8](repeating: 0, count: capacity - room) }
        do {
            let start = outputCount
            let written = try bytes.withUnsafeBytes { input in
                try output.withUnsafeMutableBytes { all in
                    try cipher.update(input, into: UnsafeMutableRawBufferPointer(rebasing: all[start...]))
                }
            }
            outputCount += written
            plaintextCount += written
        } catch let error as CryptoError {
            throw KeyError.cms(error, what: "CMS content decryption")
        }
    }

    /// Hands out the plaintext collected in `output` and starts a new one.
    private mutating func takeOutput() -> [UInt8] {
        output.removeLast(output.count - outputCount)
        let result = output
        output = []
        outputCount = 0
        return result
    }

    // MARK: Framing

    /// The header at the cursor, checked against the enclosing definite length; `nil` when it has
    /// not fully arrived.
    private func peekHeader() throws -> Header? {
        let header: Header
        do {
            // Offsets in ASN1Kit's messages count from the start of the payload.
            switch try ASN1StreamHeader.parse(buffer[...], at: cursor, origin: cursor - position, rules: .lenientBER) {
            case .needMoreBytes: return nil
            case .complete(let tag, let headerLength, let length): header = (tag, headerLength, length)
            }
        } catch {
            throw KeyError(.malformed, "CMS: \(error.reason)", offset: position, cause: error)
        }
        if let length = header.length, length > Self.maximumValueLength {
            throw KeyError(.malformed, "CMS: length \(length) at offset \(position) is too large", offset: position)
        }
        if let end = frames.last?.end {
            let valueEnd = position + header.headerLength + (header.length ?? 0)
            guard valueEnd <= end else {
                throw KeyError(.malformed, "CMS: \(header.tag.name) at offset \(position) runs past the end of \(frames.last!.name) at offset \(end)", offset: position)
            }
        }
        return header
    }

    private func expect(_ header: Header, _ tag: ASN1Tag, _ name: String) throws {
        guard header.tag == tag else {
            throw KeyError(.malformed, "CMS: expected \(name) (\(tag.name)) at offset \(position), found \(header.tag.name)", offset: position)
        }
    }

    /// Enters a constructed value with the given tag; `false` when its header has not arrived.
    private mutating func open(_ tag: ASN1Tag, _ name: String) throws -> Bool {
        guard let header = try peekHeader() else { return false }
        try expect(header, tag, name)
        frames.append(Frame(end: header.length.map { position + header.headerLength + $0 }, name: name))
        cursor += header.headerLength
        return true
    }

    /// Whether the innermost open value ends at the cursor; `nil` when that cannot be told yet.
    private func atFrameEnd() throws -> Bool? {
        guard let frame = frames.last else { return true }
        if let end = frame.end { return position == end }
        guard available >= 2 else { return nil }
        return buffer[cursor] == 0 && buffer[cursor + 1] == 0
    }

    /// Leaves the innermost open value; `false` when its end-of-contents octets have not arrived.
    private mutating func close() throws -> Bool {
        guard let frame = frames.last else { return true }
        if let end = frame.end {
            guard position == end else {
                throw KeyError(.malformed, "CMS: unexpected data at offset \(position) before the end of \(frame.name) at offset \(end)", offset: position)
            }
        } else {
            guard available >= 2 else { return false }
            guard buffer[cursor] == 0 && buffer[cursor + 1] == 0 else {
                throw KeyError(.malformed, "CMS: expected the end-of-contents octets of \(frame.name) at offset \(position)", offset: position)
            }
            cursor += 2
        }
        frames.removeLast()
        return true
    }

    /// Takes the complete value at the cursor (header included) with its payload offset; `nil` when
    /// it has not fully arrived.
    private mutating func readElement() throws -> (ArraySlice<UInt8>, Int)? {
        guard let header = try peekHeader() else { return nil }
        let offset = position
        if let length = header.length {
            let total = header.headerLength + length
            guard total <= available else {
                guard total <= Self.maximumHeaderSize else {
                    throw KeyError(.malformed, "CMS: \(header.tag.name) at offset \(offset) is \(total) bytes, more than the \(Self.maximumHeaderSize) allowed before or after the content", offset: offset)
                }
                return nil
            }
            defer { cursor += total }
            return (buffer[cursor..<cursor + total], offset)
        }
        // An indefinite length: walk the value to find its end-of-contents octets. After a walk
        // that ran out of input, wait until the buffer has grown by half before walking again, so
        // input arriving in tiny pieces costs linear, not quadratic, time.
        guard available >= indefiniteRetryAt || isFinishing else { return nil }
        var reader = DERReader(buffer[cursor...], options: .lenientBER)
        do {
            let element = try reader.readElement()
            let total = element.encodedLength
            indefiniteRetryAt = 0
            defer { cursor += total }
            return (buffer[cursor..<cursor + total], offset)
        } catch let error as ASN1Error where error.code == .truncated || error.code == .lengthOverrun {
            indefiniteRetryAt = available + max(256, available / 2)
            return nil
        } catch let error as ASN1Error {
            throw KeyError.cms(error, what: "CMS \(phase.what)", baseOffset: offset)
        }
    }

    /// Decodes a complete value with `body`, translating ASN.1 errors.
    private func decode<T>(_ what: String, _ element: ArraySlice<UInt8>, _ offset: Int, _ body: (inout DERReader) throws -> T) throws -> T {
        do {
            var reader = DERReader(element, options: .lenientBER)
            let value = try body(&reader)
            try reader.finish()
            return value
        } catch let error as ASN1Error {
            throw KeyError.cms(error, what: "CMS \(what)", baseOffset: offset)
        }
    }
}
