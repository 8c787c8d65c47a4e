import ASN1Kit
import AsymmetricKeys

/// RFC 5280 §7.1 name comparison: two names match when their DER is equal or, attribute by
/// attribute, their string values match under caseIgnoreMatch after insignificant space
/// handling (RFC 4518 §2.6, simplified: leading and trailing spaces dropped, inner runs of spaces
/// folded to one, case folded).
enum NameComparison {
    /// Whether `a` and `b` name the same entity.
    static func matches(_ a: DistinguishedName, _ b: DistinguishedName) -> Bool {
        if a == b { return true }
        guard a.relativeNames.count == b.relativeNames.count else { return false }
        return zip(a.relativeNames, b.relativeNames).allSatisfy { rdnMatches($0, $1) }
    }

    /// A key equal for two names exactly when ``matches(_:_:)`` holds: each RDN's attribute keys,
    /// sorted, joined with separators (`\u{1}+`, `\u{1},`) that cannot occur inside a key once its
    /// `\u{1}` are escaped as `\u{1}\u{2}`. Used to index trust anchors.
    static func key(of name: DistinguishedName) -> String {
        name.relativeNames.map { rdn in
            rdn.map { attribute in
                let key = key(attribute)
                return key.utf8.contains(1) ? key.replacing("\u{1}", with: "\u{1}\u{2}") : key
            }.sorted().joined(separator: "\u{1}+")
        }.joined(separator: "\u{1},")
    }

    /// Whether `prefix`'s RDNs are the first RDNs of `name` (a directoryName subtree, §4.2.1.10).
    static func isPrefix(_ prefix: DistinguishedName, of name: DistinguishedName) -> Bool {
        guard prefix.relativeNames.count <= name.relativeNames.count else { return false }
        return zip(prefix.relativeNames, name.relativeNames).allSatisfy { rdnMatches($0, $1) }
    }

    static func rdnMatches(_ a: [DistinguishedName.Attribute], _ b: [DistinguishedName.Attribute]) -> Bool {
        guard a.count == b.count else { return false }
        if a == b { return true }
        let left = a.map(key).sorted()
        let right = b.map(key).sorted()
        return left == right
    }

    /// The comparison key of one attribute: its type and its normalized string value, or its
    /// value DER when the value is not a directory string.
    static func key(_ attribute: DistinguishedName.Attribute) -> String {
        let type = attribute.type.dotted
        if let text = string(attribute) {
            return type + "=s:" + normalize(text)
        }
        return type + "=d:" + Hex.encode(attribute.valueDER)
    }

    /// The value as text, for the string types of a DirectoryString (and IA5String, as
    /// emailAddress and domainComponent use it).
    static func string(_ attribute: DistinguishedName.Attribute) -> String? {
        let bytes = attribute.value
        switch attribute.valueTag {
        case .utf8String, .printableString, .ia5String, .visibleString, .numericString:
            guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
            return text
        case .teletexString:
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        case .bmpString:
            guard bytes.count % 2 == 0 else { return nil }
            let units = stride(from: 0, to: bytes.count, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            return String(validating: units, as: UTF16.self)
        case .universalString:
            guard bytes.count % 4 == 0 else { return nil }
            var scalars = String.UnicodeScalarView()
            for index in stride(from: 0, to: bytes.count, by: 4) {
                let value = bytes[index..<index + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                guard let scalar = Unicode.Scalar(value) else { return nil }
                scalars.append(scalar)
            }
            return String(scalars)
        default:
            return nil
        }
    }

    /// Insignificant space handling and case folding.
    static func normalize(_ text: String) -> String {
        // Most names are ASCII without a space to drop or fold: only the case to fold.
        let utf8 = text.utf8
        if let first = utf8.first, let last = utf8.last, first != 0x20, last != 0x20,
           !utf8.contains(where: { $0 >= 0x80 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }),
           !utf8.indices.dropLast().contains(where: { utf8[$0] == 0x20 && utf8[utf8.index(after: $0)] == 0x20 }) {
            return text.lowercased()
        }
        var words: [Substring] = []
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
            words.append(word)
        }
        return words.joined(separator: " ").lowercased()
    }
}
