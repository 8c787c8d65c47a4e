import ASN1Kit
import CofferErrors
import AsymmetricKeys

// Reading RFC 4514 text into a Name, and writing a Name as DER: the way back of
// DistinguishedName+RFC4514.swift, so that what `rfc4514String` prints reads back as the same name.
//
// - RDNs are separated by `,`, the attributes of a multi-valued RDN by `+`; the text lists the most
//   specific RDN first (`CN=leaf,O=Example,C=US`), the DER the least specific first.
// - A type is a short name as OpenSSL prints it (`CN`, `O`, `emailAddress`, `DC`, …; any case), a
//   few long names (`commonName`, `organizationName`, …), or a dotted OID (`2.5.4.3`, `OID.2.5.4.3`).
// - A value is text, with `\` escaping one of `,+"\<>;=# ` or two hex digits (one octet of UTF-8),
//   or `#` and the hex of a whole DER value. Unescaped spaces around types and values are dropped
//   (`CN=a, O=b` is read as `CN=a,O=b`); `"`, `;`, `<` and `>` must be escaped.
// - Text values are encoded as OpenSSL does with its default string mask: PrintableString for `C`,
//   `serialNumber` and `dnQualifier`, IA5String for `emailAddress` and `DC`, UTF8String otherwise.

extension DistinguishedName {
    /// The longest RFC 4514 text ``init(rfc4514:)`` reads, in UTF-8 bytes.
    public static let maximumRFC4514Length = 65_536

    /// Reads a name from its RFC 4514 text (`CN=www.example.com,O=Example,C=US`).
    ///
    /// Empty text (or only spaces) is the empty name.
    ///
    /// - Throws: ``KeyError`` `.invalidArgument` naming the position and the reason: an unknown
    ///   attribute type, a missing `=`, a bad escape, an empty RDN, a value that its type's string
    ///   cannot hold (a `C` that is not two letters), text over ``maximumRFC4514Length`` bytes or
    ///   more RDNs or attributes than a parsed name may have.
    public init(rfc4514 text: String) throws {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maximumRFC4514Length else {
            throw KeyError(.invalidArgument, "the name is \(bytes.count) bytes long; at most \(Self.maximumRFC4514Length) are read")
        }
        var position = 0
        Self.skipSpaces(bytes, &position)
        guard position < bytes.count else {
            self.init(relativeNames: [])
            return
        }
        var names: [[Attribute]] = []
        var current: [Attribute] = []
        while true {
            guard current.count < Self.maximumAttributesPerRelativeName else {
                throw KeyError(.invalidArgument, "a relative distinguished name has more than \(Self.maximumAttributesPerRelativeName) attributes")
            }
            current.append(try Self.readAttribute(bytes, &position))
            guard position < bytes.count else { break }
            let separator = bytes[position]
            position += 1
            if separator == UInt8(ascii: ",") {
                guard names.count < Self.maximumRelativeNames - 1 else {
                    throw KeyError(.invalidArgument, "the name has more than \(Self.maximumRelativeNames) relative distinguished names")
                }
                names.append(Self.sortedForDER(current))
                current = []
            }
        }
        names.append(Self.sortedForDER(current))
        self.init(relativeNames: names.reversed())
    }

    /// The `Name` DER: each RDN a SET whose attributes are in DER order.
    public var derEncoded: [UInt8] {
        var writer = DERWriter()
        write(to: &writer)
        return writer.finish()
    }

    /// Writes the `Name` at the writer's position. A name read from DER is written back
    /// byte-identically (its values are kept as encoded).
    public func write(to writer: inout DERWriter) {
        writer.writeSequence { sequence in
            for rdn in relativeNames {
                let encoded = rdn.map(Self.encode).sorted(by: Self.derSetOrder)
                sequence.writeConstructed(.set) { set in
                    for attribute in encoded { set.writeEncoded(attribute) }
                }
            }
        }
    }

    // MARK: - Parsing

    private static func skipSpaces(_ bytes: [UInt8], _ position: inout Int) {
        while position < bytes.count, bytes[position] == UInt8(ascii: " ") { position += 1 }
    }

    /// `type=value` at `position`, which is left at the separator after it (or the end).
    private static func readAttribute(_ bytes: [UInt8], _ position: inout Int) throws -> Attribute {
        skipSpaces(bytes, &position)
        guard position < bytes.count, bytes[position] != UInt8(ascii: ","), bytes[position] != UInt8(ascii: "+") else {
            throw KeyError(.invalidArgument, "an empty attribute at position \(position + 1): a ',' or '+' with no TYPE=VALUE after it")
        }
        let typeStart = position
        while position < bytes.count, bytes[position] != UInt8(ascii: "=") {
            let byte = bytes[position]
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "+") {
                throw KeyError(.invalidArgument, "the attribute at position \(typeStart + 1) has no '=' (write TYPE=VALUE, e.g. CN=example.com)")
            }
            position += 1
        }
        guard position < bytes.count else {
            throw KeyError(.invalidArgument, "the attribute at position \(typeStart + 1) has no '=' (write TYPE=VALUE, e.g. CN=example.com)")
        }
        var typeEnd = position
        while typeEnd > typeStart, bytes[typeEnd - 1] == UInt8(ascii: " ") { typeEnd -= 1 }
        let typeText = String(decoding: bytes[typeStart..<typeEnd], as: UTF8.self)
        let type = try attributeType(typeText, at: typeStart)
        position += 1 // '='
        skipSpaces(bytes, &position)
        if position < bytes.count, bytes[position] == UInt8(ascii: "#") {
            return try readHexValue(bytes, &position, type: type, typeText: typeText)
        }
        var octets: [UInt8] = []
        var keep = 0 // octets up to the last escaped or non-space one
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "+") { break }
            if byte == UInt8(ascii: "\\") {
                guard position + 1 < bytes.count else {
                    throw KeyError(.invalidArgument, "the value of \(typeText) ends with a lone '\\' (position \(position + 1))")
                }
                let next = bytes[position + 1]
                if let high = hexDigit(next) {
                    guard position + 2 < bytes.count, let low = hexDigit(bytes[position + 2]) else {
                        throw KeyError(.invalidArgument, "the value of \(typeText) has '\\' followed by one hex digit at position \(position + 1); write two (\\2C) or escape a special character (\\,)")
                    }
                    octets.append(high << 4 | low)
                    position += 3
                } else if Array(",+\"\\<>;=# ".utf8).contains(next) {
                    octets.append(next)
                    position += 2
                } else {
                    throw KeyError(.invalidArgument, "the value of \(typeText) has the escape '\\\(String(decoding: [next], as: UTF8.self))' at position \(position + 1), which RFC 4514 does not define")
                }
                keep = octets.count
                continue
            }
            if Array("\";<>".utf8).contains(byte) {
                throw KeyError(.invalidArgument, "the value of \(typeText) has an unescaped '\(String(decoding: [byte], as: UTF8.self))' at position \(position + 1); write it as '\\\(String(decoding: [byte], as: UTF8.self))'")
            }
            octets.append(byte)
            if byte != UInt8(ascii: " ") { keep = octets.count }
            position += 1
        }
        octets.removeLast(octets.count - keep)
        return try textAttribute(type, octets, typeText: typeText)
    }

    /// `#` and the hex of one DER value.
    private static func readHexValue(_ bytes: [UInt8], _ position: inout Int, type: ASN1ObjectIdentifier, typeText: String) throws -> Attribute {
        let start = position
        position += 1
        var der: [UInt8] = []
        while position < bytes.count, bytes[position] != UInt8(ascii: ","), bytes[position] != UInt8(ascii: "+"),
              bytes[position] != UInt8(ascii: " ") {
            guard position + 1 < bytes.count, let high = hexDigit(bytes[position]), let low = hexDigit(bytes[position + 1]) else {
                throw KeyError(.invalidArgument, "the value of \(typeText) at position \(start + 1) starts with '#' but is not an even number of hex digits (escape a leading '#' as '\\#')")
            }
            der.append(high << 4 | low)
            position += 2
        }
        skipSpaces(bytes, &position)
        if position < bytes.count, bytes[position] != UInt8(ascii: ","), bytes[position] != UInt8(ascii: "+") {
            throw KeyError(.invalidArgument, "the value of \(typeText) at position \(start + 1) has text after its hex DER")
        }
        var reader = DERReader(der)
        do {
            let element = try reader.readElement()
            try reader.finish()
            return Attribute(type: type, valueTag: element.tag, value: Array(element.content), valueDER: der)
        } catch {
            throw KeyError(.invalidArgument, "the value of \(typeText) at position \(start + 1) is not one DER value: \((error as? ASN1Error)?.reason ?? "\(error)")")
        }
    }

    /// A text value encoded in its type's string type.
    private static func textAttribute(_ type: ASN1ObjectIdentifier, _ octets: [UInt8], typeText: String) throws -> Attribute {
        guard let text = String(validating: octets, as: UTF8.self) else {
            throw KeyError(.invalidArgument, "the value of \(typeText) is not valid UTF-8")
        }
        let stringType: ASN1Tag
        switch type.dotted {
        case "2.5.4.6":
            guard octets.count == 2, octets.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw KeyError(.invalidArgument, "the country (C) must be a two-letter ISO 3166 code, not '\(text)'")
            }
            stringType = .printableString
        case "2.5.4.5", "2.5.4.46":
            stringType = .printableString
        case "1.2.840.113549.1.9.1", "0.9.2342.19200300.100.1.25":
            stringType = .ia5String
        default:
            stringType = .utf8String
        }
        var writer = DERWriter()
        do {
            try writer.writeString(text, type: stringType)
        } catch {
            let typeName = stringType == .printableString ? "PrintableString (letters, digits, space and '()+,-./:=?)" : "IA5String (ASCII)"
            throw KeyError(.invalidArgument, "the value of \(typeText) must be a \(typeName)")
        }
        let der = writer.finish()
        return Attribute(type: type, valueTag: stringType, value: octets, valueDER: der)
    }

    /// The OID of a short name, long name or dotted OID.
    private static func attributeType(_ text: String, at position: Int) throws -> ASN1ObjectIdentifier {
        guard !text.isEmpty else {
            throw KeyError(.invalidArgument, "the attribute at position \(position + 1) has no type before '='")
        }
        var dotted = Substring(text)
        if dotted.lowercased().hasPrefix("oid.") { dotted = dotted.dropFirst(4) }
        if let first = dotted.utf8.first, (0x30...0x39).contains(first) {
            guard let oid = ASN1ObjectIdentifier(dotted: String(dotted)) else {
                throw KeyError(.invalidArgument, "'\(text)' at position \(position + 1) is not a valid dotted OID")
            }
            return oid
        }
        if let oid = typesByName[text.lowercased()] { return oid }
        throw KeyError(.invalidArgument, "unknown attribute type '\(text)' at position \(position + 1) (use CN, O, OU, C, ST, L, emailAddress, DC, … or a dotted OID)")
    }

    /// Short names (``shortNames``) and a few long ones, lowercased.
    private static let typesByName: [String: ASN1ObjectIdentifier] = {
        var table: [String: ASN1ObjectIdentifier] = [:]
        for (oid, name) in shortNames { table[name.lowercased()] = oid }
        let long: [(String, String)] = [
            ("commonname", "2.5.4.3"), ("surname", "2.5.4.4"), ("countryname", "2.5.4.6"), ("localityname", "2.5.4.7"),
            ("stateorprovincename", "2.5.4.8"), ("s", "2.5.4.8"), ("streetaddress", "2.5.4.9"), ("organizationname", "2.5.4.10"),
            ("organizationalunitname", "2.5.4.11"), ("givenname", "2.5.4.42"), ("domaincomponent", "0.9.2342.19200300.100.1.25"),
            ("userid", "0.9.2342.19200300.100.1.1"), ("email", "1.2.840.113549.1.9.1"),
        ]
        for (name, dotted) in long { table[name] = ASN1ObjectIdentifier(dotted: dotted)! }
        return table
    }()

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    // MARK: - Encoding

    /// One `AttributeTypeAndValue` as DER.
    private static func encode(_ attribute: Attribute) -> [UInt8] {
        var writer = DERWriter()
        writer.writeSequence { pair in
            pair.writeObjectIdentifier(attribute.type)
            pair.writeEncoded(attribute.valueDER)
        }
        return writer.finish()
    }

    /// The attributes in the order DER puts a SET OF in (X.690 §11.6).
    private static func sortedForDER(_ attributes: [Attribute]) -> [Attribute] {
        guard attributes.count > 1 else { return attributes }
        return attributes.map { ($0, encode($0)) }.sorted { derSetOrder($0.1, $1.1) }.map(\.0)
    }

    /// X.690 §11.6: encodings compared as octet strings, the shorter padded with zero octets.
    private static func derSetOrder(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            if x != y { return x < y }
        }
        return a.count < b.count
    }
}
