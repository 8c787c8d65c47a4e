import ASN1Kit

/// The identifier and length octets of one BER value (X.690 §8.1.2, §8.1.3), decoded from a buffer
/// that may not hold the whole value yet: the streaming CMS parser's view of the framing.
///
/// Lenient BER on purpose: `openssl cms -encrypt -stream` (and any streaming CMS writer) uses the
/// indefinite length form for ContentInfo, the enveloped data and the encrypted content, and cuts
/// the content into a constructed OCTET STRING. Complete inner values are parsed with
/// ``DERReader`` in ``ASN1ParsingOptions/lenientBER`` mode for the same reason.
struct BERHeader {
    /// Class, number and constructed bit.
    var tag: ASN1Tag
    /// Identifier plus length octets.
    var headerLength: Int
    /// The content length; `nil` for the indefinite form.
    var length: Int?

    /// The longest tag number accepted in the high-tag-number form, in base-128 groups.
    private static let maximumTagGroups = 4

    /// Decodes the header at `start`.
    ///
    /// - Returns: `nil` when `bytes` ends before the header does.
    /// - Throws: ``DecryptionError`` `.malformedPayload` for a reserved or oversized length, or an
    ///   indefinite length on a primitive value. `absoluteOffset` is the payload offset of `start`.
    static func parse(_ bytes: ArraySlice<UInt8>, at start: Int, absoluteOffset: Int) throws -> BERHeader? {
        var index = start
        guard index < bytes.endIndex else { return nil }
        let first = bytes[index]
        index += 1
        let tagClass = ASN1TagClass(rawValue: first >> 6)!
        let constructed = first & 0x20 != 0
        var number = UInt64(first & 0x1F)
        if number == 0x1F {
            number = 0
            var groups = 0
            while true {
                guard index < bytes.endIndex else { return nil }
                let byte = bytes[index]
                index += 1
                groups += 1
                guard groups <= maximumTagGroups else {
                    throw DecryptionError(.malformedPayload, "CMS: tag number at offset \(absoluteOffset) is too large", offset: absoluteOffset)
                }
                number = number << 7 | UInt64(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
        }
        guard index < bytes.endIndex else { return nil }
        let lengthByte = bytes[index]
        index += 1
        let length: Int?
        switch lengthByte {
        case 0..<0x80:
            length = Int(lengthByte)
        case 0x80:
            guard constructed else {
                throw DecryptionError(.malformedPayload, "CMS: primitive value at offset \(absoluteOffset) uses the indefinite length form", offset: absoluteOffset)
            }
            length = nil
        case 0xFF:
            throw DecryptionError(.malformedPayload, "CMS: reserved length octet 0xFF at offset \(absoluteOffset)", offset: absoluteOffset)
        default:
            let count = Int(lengthByte & 0x7F)
            guard count <= 8 else {
                throw DecryptionError(.malformedPayload, "CMS: length at offset \(absoluteOffset) has \(count) octets", offset: absoluteOffset)
            }
            guard bytes.endIndex - index >= count else { return nil }
            var value: UInt64 = 0
            for _ in 0..<count {
                value = value << 8 | UInt64(bytes[index])
                index += 1
            }
            guard value <= UInt64(Int32.max) * 1024 else {
                throw DecryptionError(.malformedPayload, "CMS: length \(value) at offset \(absoluteOffset) is too large", offset: absoluteOffset)
            }
            length = Int(value)
        }
        return BERHeader(tag: ASN1Tag(tagClass, number, constructed: constructed), headerLength: index - start, length: length)
    }
}
