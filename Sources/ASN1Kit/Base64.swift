/// Base64 (RFC 4648 §4) for PEM and OpenSSH bodies.
public enum Base64 {
    /// How decoding treats characters outside the alphabet.
    public enum Strictness: Sendable {
        /// Only whitespace (space, tab, CR, LF) may appear between alphabet characters.
        case whitespaceOnly
    }

    @usableFromInline
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    @usableFromInline
    static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        for c in [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n")] { table[Int(c)] = 0xFE }
        table[Int(UInt8(ascii: "="))] = 0xFD
        return table
    }()

    /// Encodes bytes as base64 text with padding, without line breaks.
    public static func encode<C: Collection<UInt8>>(_ bytes: C) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let a = iterator.next() {
            let b = iterator.next()
            let c = iterator.next()
            out.append(alphabet[Int(a >> 2)])
            out.append(alphabet[Int((a & 0x03) << 4 | (b ?? 0) >> 4)])
            out.append(b.map { alphabet[Int(($0 & 0x0F) << 2 | (c ?? 0) >> 6)] } ?? UInt8(ascii: "="))
            out.append(c.map { alphabet[Int($0 & 0x3F)] } ?? UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes base64 text, ignoring whitespace. Padding is optional at the very end; anything after
    /// padding, a character outside the alphabet, or a dangling single character is an error whose
    /// offset is `baseOffset` plus the position of the bad character.
    public static func decode<C: Collection<UInt8>>(_ text: C, baseOffset: Int = 0) throws -> [UInt8] where C.Index == Int {
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var count = 0
        var padding = 0
        for index in text.indices {
            let byte = text[index]
            let value = decodeTable[Int(byte)]
            let offset = baseOffset + index - text.startIndex
            switch value {
            case 0xFE:
                continue
            case 0xFD:
                padding += 1
                guard padding <= 2, count % 4 >= 2 else {
                    throw ASN1Error(.invalidBase64, at: offset, "misplaced '=' padding at offset \(offset)")
                }
            case 0xFF:
                throw ASN1Error(.invalidBase64, at: offset, "invalid base64 character at offset \(offset)")
            default:
                guard padding == 0 else {
                    throw ASN1Error(.invalidBase64, at: offset, "base64 data continues after '=' padding at offset \(offset)")
                }
                accumulator = accumulator << 6 | UInt32(value)
                count += 1
                if count == 4 {
                    out.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                    out.append(UInt8(truncatingIfNeeded: accumulator >> 8))
                    out.append(UInt8(truncatingIfNeeded: accumulator))
                    accumulator = 0
                    count = 0
                }
            }
        }
        let endOffset = baseOffset + text.count
        switch count {
        case 0:
            guard padding == 0 else { throw ASN1Error(.invalidBase64, at: endOffset, "misplaced '=' padding before offset \(endOffset)") }
        case 1:
            throw ASN1Error(.invalidBase64, at: endOffset, "base64 data ends with a dangling character before offset \(endOffset)")
        case 2:
            guard padding == 0 || padding == 2 else { throw ASN1Error(.invalidBase64, at: endOffset, "wrong '=' padding before offset \(endOffset)") }
            guard accumulator & 0x0F == 0 else { throw ASN1Error(.invalidBase64, at: endOffset, "base64 data has non-zero padding bits before offset \(endOffset)") }
            out.append(UInt8(truncatingIfNeeded: accumulator >> 4))
        default:
            guard padding == 0 || padding == 1 else { throw ASN1Error(.invalidBase64, at: endOffset, "wrong '=' padding before offset \(endOffset)") }
            guard accumulator & 0x03 == 0 else { throw ASN1Error(.invalidBase64, at: endOffset, "base64 data has non-zero padding bits before offset \(endOffset)") }
            out.append(UInt8(truncatingIfNeeded: accumulator >> 10))
            out.append(UInt8(truncatingIfNeeded: accumulator >> 2))
        }
        return out
    }
}
