import CofferErrors

// The character string types (X.680 §41): each one's character set is checked.

extension ASN1Element {
    /// The text of a character string, decoded and validated according to the universal tag
    /// (UTF8String, PrintableString, IA5String, NumericString, VisibleString, TeletexString as
    /// Latin-1, BMPString as UCS-2, UniversalString as UCS-4). For an IMPLICIT tag pass the
    /// underlying type as `type`.
    public func string(as type: ASN1Tag? = nil) throws -> String {
        let kind = (type ?? tag).number
        let name = ASN1Tag.universalName(kind)
        func bad(_ what: String) -> ASN1Error {
            ASN1Error(.invalidString, "\(name) at offset \(offset) \(what)", offset: offset)
        }
        switch kind {
        case 12: // UTF8String
            guard let text = String(validating: content, as: UTF8.self) else { throw bad("is not valid UTF-8") }
            return text
        case 18: // NumericString
            guard content.allSatisfy({ $0 == 0x20 || (0x30...0x39).contains($0) }) else { throw bad("contains a character other than digits and space") }
            return String(decoding: content, as: UTF8.self)
        case 19: // PrintableString
            guard let index = content.firstIndex(where: { !ASN1Element.isPrintable($0) }) else {
                return String(decoding: content, as: UTF8.self)
            }
            throw bad("contains a character not allowed in PrintableString at offset \(contentOffset + index - content.startIndex)")
        case 22: // IA5String
            guard content.allSatisfy({ $0 < 0x80 }) else { throw bad("contains a non-ASCII octet") }
            return String(decoding: content, as: UTF8.self)
        case 26: // VisibleString
            guard content.allSatisfy({ (0x20...0x7E).contains($0) }) else { throw bad("contains a non-visible character") }
            return String(decoding: content, as: UTF8.self)
        case 20: // TeletexString: read as Latin-1, as OpenSSL does
            return String(String.UnicodeScalarView(content.map { Unicode.Scalar($0) }))
        case 30: // BMPString: UCS-2, big-endian, no surrogates
            guard content.count % 2 == 0 else { throw bad("has an odd number of octets") }
            var scalars = String.UnicodeScalarView()
            var i = content.startIndex
            while i < content.endIndex {
                let unit = UInt32(content[i]) << 8 | UInt32(content[i + 1])
                guard let scalar = Unicode.Scalar(unit) else { throw bad("contains a surrogate code unit") }
                scalars.append(scalar)
                i += 2
            }
            return String(scalars)
        case 28: // UniversalString: UCS-4, big-endian
            guard content.count % 4 == 0 else { throw bad("is not a multiple of 4 octets") }
            var scalars = String.UnicodeScalarView()
            var i = content.startIndex
            while i < content.endIndex {
                let unit = content[i..<i + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                guard let scalar = Unicode.Scalar(unit) else { throw bad("contains an invalid code point") }
                scalars.append(scalar)
                i += 4
            }
            return String(scalars)
        default:
            throw ASN1Error(.unexpectedTag, "\(tag.name) at offset \(offset) is not a character string type", offset: offset)
        }
    }

    static func isPrintable(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39: true
        case 0x20, 0x27, 0x28, 0x29, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x3A, 0x3D, 0x3F: true
        default: false
        }
    }

    /// Universal tag numbers of the character string types.
    static let stringTagNumbers: Set<UInt64> = [12, 18, 19, 20, 22, 26, 28, 30]
}
