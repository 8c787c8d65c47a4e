import ASN1Kit

/// How `keytool asn1` shows the value of a primitive, close to `openssl asn1parse`.
enum ASN1ValueFormatter {
    /// The value text, or `nil` for types with nothing to show (NULL, constructed values).
    static func value(of element: ASN1Element) -> String? {
        guard !element.tag.isConstructed else { return nil }
        guard element.tag.tagClass == .universal else { return hex(element.content) }
        switch element.tag.number {
        case 1:
            return (try? element.boolean(rules: .lenientBER)).map { $0 ? "TRUE" : "FALSE" } ?? hex(element.content)
        case 2, 10:
            return integer(element)
        case 3:
            guard let bits = try? element.bitString(rules: .lenientBER) else { return hex(element.content) }
            return bits.unusedBits == 0 ? hex(bits.bytes) : "\(hex(bits.bytes)) (\(bits.unusedBits) unused bits)"
        case 4:
            return hex(element.content)
        case 5:
            return nil
        case 6:
            guard let oid = try? element.objectIdentifier() else { return hex(element.content) }
            return oid.description
        case 23, 24:
            return String(decoding: element.content, as: UTF8.self)
        case 12, 18, 19, 20, 22, 26, 28, 30:
            return (try? element.string()) ?? hex(element.content)
        default:
            return hex(element.content)
        }
    }

    /// Upper-case hex of the magnitude, `-` for negative numbers, as OpenSSL prints INTEGERs.
    static func integer(_ element: ASN1Element) -> String {
        let content = element.content
        guard let first = content.first else { return "" }
        if first & 0x80 == 0 {
            let magnitude = content.drop(while: { $0 == 0 })
            return magnitude.isEmpty ? "00" : hex(magnitude)
        }
        // Two's complement negation of the content.
        var bytes = content.map { ~$0 }
        var index = bytes.count - 1
        while index >= 0 {
            bytes[index] &+= 1
            if bytes[index] != 0 { break }
            index -= 1
        }
        let magnitude = bytes.drop(while: { $0 == 0 })
        return "-" + hex(magnitude)
    }

    static func hex<C: Collection<UInt8>>(_ bytes: C) -> String {
        Hex.encode(bytes, uppercase: true)
    }
}
