import ASN1Kit
import CofferErrors
import AsymmetricKeys

/// One name of a subject alternative name extension (RFC 5280 §4.2.1.6).
///
/// ```
/// GeneralName ::= CHOICE {
///      otherName                 [0] OtherName,
///      rfc822Name                [1] IA5String,
///      dNSName                   [2] IA5String,
///      x400Address               [3] ORAddress,
///      directoryName             [4] Name,
///      ediPartyName              [5] EDIPartyName,
///      uniformResourceIdentifier [6] IA5String,
///      iPAddress                 [7] OCTET STRING,
///      registeredID              [8] OBJECT IDENTIFIER }
/// OtherName ::= SEQUENCE { type-id OBJECT IDENTIFIER, value [0] EXPLICIT ANY DEFINED BY type-id }
/// ```
public enum GeneralName: Sendable, Hashable, CustomStringConvertible {
    /// `[0]`: a name of another type, with the DER of its `[0]` value.
    case otherName(type: ASN1ObjectIdentifier, valueDER: [UInt8])
    /// `[1]` rfc822Name.
    case email(String)
    /// `[2]` dNSName.
    case dns(String)
    /// `[3]`, kept as DER.
    case x400Address(der: [UInt8])
    /// `[4]`.
    case directoryName(DistinguishedName)
    /// `[5]`, kept as DER.
    case ediPartyName(der: [UInt8])
    /// `[6]` uniformResourceIdentifier.
    case uri(String)
    /// 4 octets (IPv4) or 16 (IPv6); other lengths are kept and print as `<invalid>`.
    case ipAddress([UInt8])
    /// `[8]`.
    case registeredID(ASN1ObjectIdentifier)

    /// The name as `openssl x509 -ext subjectAltName` prints it: `DNS:example.com`,
    /// `IP Address:192.0.2.1`, `IP Address:2001:DB8:0:0:0:0:0:1`, `email:…`, `URI:…`; a directory
    /// name is written `DirName:` and its RFC 4514 form, another name as OpenSSL 3.0 writes it:
    /// `othername: UPN::user@example.com`, `othername: 1.2.3.4::Hello World` (the type's name for
    /// the five RFC/Microsoft types OpenSSL names, else its OID; a UTF8String or IA5String value as
    /// text, any other `<unsupported>`).
    public var description: String {
        switch self {
        case .otherName(let type, let valueDER): "othername: \(Self.otherNameTypeName(type))::\(Self.otherNameValueText(valueDER))"
        case .email(let text): "email:\(text)"
        case .dns(let text): "DNS:\(text)"
        case .x400Address: "X400Name:<unsupported>"
        case .directoryName(let name): "DirName:\(name.rfc4514String)"
        case .ediPartyName: "EdiPartyName:<unsupported>"
        case .uri(let text): "URI:\(text)"
        case .ipAddress(let bytes): "IP Address:\(Self.ipText(bytes))"
        case .registeredID(let oid): "Registered ID:\(oid.name ?? oid.dotted)"
        }
    }

    /// The otherName types OpenSSL 3.0 prints by name: Microsoft's UPN and RFC 8398, 6120, 4985
    /// and 7585's types; others by their OID.
    static func otherNameTypeName(_ type: ASN1ObjectIdentifier) -> String {
        switch type.dotted {
        case "1.3.6.1.4.1.311.20.2.3": "UPN"
        case "1.3.6.1.5.5.7.8.9": "SmtpUTF8Mailbox"
        case "1.3.6.1.5.5.7.8.5": "XmppAddr"
        case "1.3.6.1.5.5.7.8.7": "SRVName"
        case "1.3.6.1.5.5.7.8.8": "NAIRealm"
        default: type.dotted
        }
    }

    /// The value of an otherName (`[0] EXPLICIT ANY`): the text of a UTF8String or IA5String,
    /// with control characters escaped; `<unsupported>` for any other value.
    static func otherNameValueText(_ valueDER: [UInt8]) -> String {
        var outer = DERReader(valueDER)
        guard let content = try? outer.readExplicit(0, { try $0.readElement() }),
              content.tag == .utf8String || content.tag == .ia5String,
              let text = try? content.string(as: content.tag) else {
            return "<unsupported>"
        }
        return text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\\x" + String($0.value, radix: 16) : String($0) }.joined()
    }

    /// Dotted quad for IPv4; for IPv6 eight uppercase groups without leading zeros and without
    /// `::` compression, as OpenSSL 3.0 prints them.
    static func ipText(_ bytes: [UInt8]) -> String {
        switch bytes.count {
        case 4:
            return bytes.map { String($0) }.joined(separator: ".")
        case 16:
            return stride(from: 0, to: 16, by: 2).map {
                String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16, uppercase: true)
            }.joined(separator: ":")
        default:
            return "<invalid>"
        }
    }

    /// Reads one GeneralName at the cursor.
    package static func read(from reader: inout DERReader) throws -> GeneralName {
        let element = try reader.readElement()
        let tag = element.tag
        guard tag.tagClass == .contextSpecific else {
            throw ASN1Error(.unexpectedTag, "expected a GeneralName ([0] … [8]) at offset \(element.offset), found \(tag.name)", offset: element.offset)
        }
        func ia5() throws -> String { try element.string(as: .ia5String) }
        func requirePrimitive() throws {
            guard !tag.isConstructed else {
                throw ASN1Error(.invalidConstruction, "GeneralName [\(tag.number)] at offset \(element.offset) must be primitive", offset: element.offset)
            }
        }
        func requireConstructed() throws -> DERReader {
            guard tag.isConstructed else {
                throw ASN1Error(.invalidConstruction, "GeneralName [\(tag.number)] at offset \(element.offset) must be constructed", offset: element.offset)
            }
            return try reader.reader(for: element)
        }
        switch tag.number {
        case 0:
            var content = try requireConstructed()
            let type = try content.readObjectIdentifier()
            let before = content.remaining
            _ = try content.readElement(.context(0, constructed: true))
            let value = Array(before[before.startIndex..<content.remaining.startIndex])
            try content.finish()
            return .otherName(type: type, valueDER: value)
        case 1: try requirePrimitive(); return .email(try ia5())
        case 2: try requirePrimitive(); return .dns(try ia5())
        case 3: _ = try requireConstructed(); return .x400Address(der: Array(element.content))
        case 4:
            var content = try requireConstructed()
            let name = try DistinguishedName.read(from: &content)
            try content.finish()
            return .directoryName(name)
        case 5: _ = try requireConstructed(); return .ediPartyName(der: Array(element.content))
        case 6: try requirePrimitive(); return .uri(try ia5())
        case 7: try requirePrimitive(); return .ipAddress(Array(element.content))
        case 8: try requirePrimitive(); return .registeredID(try element.objectIdentifier())
        default:
            throw ASN1Error(.unexpectedTag, "GeneralName at offset \(element.offset) has the unknown choice [\(tag.number)]", offset: element.offset)
        }
    }
}
