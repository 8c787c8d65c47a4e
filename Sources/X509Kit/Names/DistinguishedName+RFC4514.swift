import ASN1Kit
import AsymmetricKeys

// RFC 4514 text of a Name, exactly as `openssl x509 -nameopt RFC2253` prints it:
//
// - RDNs in reverse order separated by `,`; the attributes of a multi-valued RDN separated by `+`,
//   also in reverse order (OpenSSL walks the flat attribute list backwards);
// - attribute types by their short name (`CN`, `O`, `emailAddress`, `UID`, …) or, for a type
//   without one, the dotted OID with the value as `#` and the uppercase hex of its DER;
// - values of the string types as characters: `,+"\<>;` escaped with a backslash, `#` or space
//   first and space last likewise (when a value has one character, only the last-position rule
//   applies, as in OpenSSL), control characters as `\XX`, and every octet of the UTF-8 form of a
//   non-ASCII character as `\XX`; values of other types as `#` and the hex of their DER.

extension DistinguishedName {
    /// The name as RFC 4514 text, exactly as `openssl x509 -nameopt RFC2253` prints it.
    public var rfc4514String: String {
        relativeNames.reversed().map { rdn in
            rdn.reversed().map { $0.rfc4514String }.joined(separator: "+")
        }.joined(separator: ",")
    }

    /// The short names OpenSSL gives the usual attribute types of names.
    static let shortNames: [ASN1ObjectIdentifier: String] = {
        let table: [(String, String)] = [
            ("2.5.4.3", "CN"), ("2.5.4.4", "SN"), ("2.5.4.5", "serialNumber"), ("2.5.4.6", "C"),
            ("2.5.4.7", "L"), ("2.5.4.8", "ST"), ("2.5.4.9", "street"), ("2.5.4.10", "O"),
            ("2.5.4.11", "OU"), ("2.5.4.12", "title"), ("2.5.4.13", "description"),
            ("2.5.4.15", "businessCategory"), ("2.5.4.16", "postalAddress"), ("2.5.4.17", "postalCode"),
            ("2.5.4.18", "postOfficeBox"), ("2.5.4.20", "telephoneNumber"), ("2.5.4.41", "name"),
            ("2.5.4.42", "GN"), ("2.5.4.43", "initials"), ("2.5.4.44", "generationQualifier"),
            ("2.5.4.45", "x500UniqueIdentifier"), ("2.5.4.46", "dnQualifier"), ("2.5.4.65", "pseudonym"),
            ("2.5.4.72", "role"), ("2.5.4.97", "organizationIdentifier"),
            ("1.2.840.113549.1.9.1", "emailAddress"), ("1.2.840.113549.1.9.2", "unstructuredName"),
            ("1.2.840.113549.1.9.8", "unstructuredAddress"),
            ("0.9.2342.19200300.100.1.1", "UID"), ("0.9.2342.19200300.100.1.25", "DC"),
            ("1.3.6.1.4.1.311.60.2.1.1", "jurisdictionL"), ("1.3.6.1.4.1.311.60.2.1.2", "jurisdictionST"),
            ("1.3.6.1.4.1.311.60.2.1.3", "jurisdictionC"),
            // The Russian registration numbers of GOST certificates (OpenSSL 3.0's names).
            ("1.2.643.3.131.1.1", "INN"), ("1.2.643.100.1", "OGRN"), ("1.2.643.100.3", "SNILS"),
            ("1.2.643.100.5", "OGRNIP"), ("1.2.643.100.4", "INNLE"),
        ]
        var names: [ASN1ObjectIdentifier: String] = [:]
        for (dotted, name) in table { names[ASN1ObjectIdentifier(dotted: dotted)!] = name }
        return names
    }()
}

extension DistinguishedName.Attribute {
    /// `type=value` in RFC 4514 form.
    public var rfc4514String: String {
        guard let name = DistinguishedName.shortNames[type] else {
            return type.dotted + "=" + Self.dump(valueDER)
        }
        return name + "=" + rfc4514Value
    }

    /// The value in RFC 4514 form (escaped text, or `#` and hex for non-string types).
    public var rfc4514Value: String {
        guard let characters = characters else { return Self.dump(valueDER) }
        var out = ""
        for (index, character) in characters.enumerated() {
            let last = index == characters.count - 1
            // OpenSSL's position flags: the last character's replace the first's.
            let position: Position = last ? .last : (index == 0 ? .first : .middle)
            if character > 0x7F {
                // A UTF8String's octets are escaped as they are; other types' characters as UTF-8.
                let octets = valueTag == .utf8String ? [UInt8(character)] : Self.utf8(character)
                for byte in octets { out += "\\" + Self.hexByte(byte) }
            } else {
                out += Self.escape(UInt8(character), position)
            }
        }
        return out
    }

    enum Position { case first, middle, last }

    /// The characters of a string-typed value as OpenSSL reads them: UTF8String octet by octet (so
    /// non-ASCII octets are escaped one by one), the one-octet types as Latin-1, BMPString as
    /// UCS-2, UniversalString as UCS-4. `nil` for other types, which are dumped.
    var characters: [UInt32]? {
        guard valueTag.tagClass == .universal, !valueTag.isConstructed else { return nil }
        switch valueTag.number {
        case 12, 18, 19, 20, 22, 23, 24, 26:
            return value.map { UInt32($0) }
        case 30:
            guard value.count % 2 == 0 else { return nil }
            return stride(from: 0, to: value.count, by: 2).map { UInt32(value[$0]) << 8 | UInt32(value[$0 + 1]) }
        case 28:
            guard value.count % 4 == 0 else { return nil }
            let units = stride(from: 0, to: value.count, by: 4).map { i in value[i..<i + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
            return units.allSatisfy { $0 <= 0x10FFFF } ? units : nil
        default:
            return nil
        }
    }

    static func escape(_ byte: UInt8, _ position: Position) -> String {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "+"), UInt8(ascii: "\""), UInt8(ascii: "\\"),
             UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: ";"):
            return "\\" + String(UnicodeScalar(byte))
        case UInt8(ascii: "#") where position == .first, UInt8(ascii: " ") where position != .middle:
            return "\\" + String(UnicodeScalar(byte))
        case 0..<0x20, 0x7F:
            return "\\" + hexByte(byte)
        default:
            return String(UnicodeScalar(byte))
        }
    }

    /// UTF-8 of a code point up to 0x10FFFF, surrogates included (as OpenSSL's `UTF8_putc`).
    static func utf8(_ c: UInt32) -> [UInt8] {
        switch c {
        case 0..<0x80: [UInt8(c)]
        case 0x80..<0x800: [UInt8(0xC0 | c >> 6), UInt8(0x80 | c & 0x3F)]
        case 0x800..<0x10000: [UInt8(0xE0 | c >> 12), UInt8(0x80 | c >> 6 & 0x3F), UInt8(0x80 | c & 0x3F)]
        default: [UInt8(0xF0 | c >> 18), UInt8(0x80 | c >> 12 & 0x3F), UInt8(0x80 | c >> 6 & 0x3F), UInt8(0x80 | c & 0x3F)]
        }
    }

    static func hexByte(_ byte: UInt8) -> String {
        Hex.encode([byte]).uppercased()
    }

    /// `#` and the uppercase hex of a DER value.
    static func dump(_ der: [UInt8]) -> String {
        "#" + Hex.encode(der).uppercased()
    }
}
