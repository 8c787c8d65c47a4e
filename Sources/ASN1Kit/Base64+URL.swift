import CofferErrors

extension Base64 {
    /// Encodes bytes as base64url (RFC 4648 §5) without padding, as JOSE (RFC 7515 §2) writes it.
    public static func encodeURL<C: Collection<UInt8>>(_ bytes: C) -> String {
        var text = Array(encode(bytes, padding: false).utf8)
        for i in text.indices {
            switch text[i] {
            case UInt8(ascii: "+"): text[i] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): text[i] = UInt8(ascii: "_")
            default: break
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Decodes base64url without padding, strictly: only the URL alphabet, no padding, no
    /// whitespace, no dangling character, and unused trailing bits zero (so that every value has one
    /// encoding).
    ///
    /// - Throws: ``ASN1Error`` `.invalidBase64` with the offset (from `baseOffset`) of the bad character.
    public static func decodeURL<C: Collection<UInt8>>(_ text: C, baseOffset: Int = 0) throws -> [UInt8] {
        var standard: [UInt8] = []
        standard.reserveCapacity(text.count + 2)
        for (i, c) in text.enumerated() {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                standard.append(c)
            case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
            default:
                throw ASN1Error(.invalidBase64, "character 0x\(String(c, radix: 16)) at offset \(baseOffset + i) is not in the base64url alphabet (no padding or whitespace allowed)", offset: baseOffset + i)
            }
        }
        if standard.count % 4 == 1 {
            throw ASN1Error(.invalidBase64, "base64url text of \(standard.count) characters ends with a dangling character", offset: baseOffset + standard.count - 1)
        }
        let bytes = try decode(standard, baseOffset: baseOffset)
        // Unused low bits of the last character must be zero.
        if let last = standard.last, standard.count % 4 != 0 {
            let value = alphabet.firstIndex(of: last) ?? 0
            let unusedMask = standard.count % 4 == 2 ? 0x0F : 0x03
            if value & unusedMask != 0 {
                throw ASN1Error(.invalidBase64, "base64url text ends in a character with non-zero unused bits (offset \(baseOffset + standard.count - 1))", offset: baseOffset + standard.count - 1)
            }
        }
        return bytes
    }
}
