/// The class bits of an identifier octet (X.690 §8.1.2.2).
public enum ASN1TagClass: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case universal = 0
    case application = 1
    case contextSpecific = 2
    case `private` = 3

    /// The lowercase name used in `keytool asn1 --json` (`universal`, `application`, `context`, `private`).
    public var description: String {
        switch self {
        case .universal: "universal"
        case .application: "application"
        case .contextSpecific: "context"
        case .private: "private"
        }
    }
}

/// An identifier: class, tag number and the constructed bit.
///
/// The constructed bit is part of the identity on purpose: in DER a SEQUENCE is always constructed
/// and an INTEGER always primitive, so matching on the whole identifier checks both at once.
public struct ASN1Tag: Hashable, Sendable, CustomStringConvertible {
    /// The class.
    public var tagClass: ASN1TagClass
    /// The tag number (any size, high-tag-number form when 31 or above).
    public var number: UInt64
    /// Whether the encoding is constructed (contains TLVs) or primitive (contains a value).
    public var isConstructed: Bool

    /// Creates a tag.
    @inlinable
    public init(_ tagClass: ASN1TagClass, _ number: UInt64, constructed: Bool) {
        self.tagClass = tagClass
        self.number = number
        self.isConstructed = constructed
    }

    /// A context-specific tag `[n]`, constructed for EXPLICIT tagging and for IMPLICIT tagging of
    /// constructed types.
    @inlinable
    public static func context(_ number: UInt64, constructed: Bool) -> ASN1Tag {
        ASN1Tag(.contextSpecific, number, constructed: constructed)
    }

    /// The same tag with another constructed bit.
    @inlinable
    public func withConstructed(_ constructed: Bool) -> ASN1Tag {
        ASN1Tag(tagClass, number, constructed: constructed)
    }

    public static let boolean = ASN1Tag(.universal, 1, constructed: false)
    public static let integer = ASN1Tag(.universal, 2, constructed: false)
    public static let bitString = ASN1Tag(.universal, 3, constructed: false)
    public static let octetString = ASN1Tag(.universal, 4, constructed: false)
    public static let null = ASN1Tag(.universal, 5, constructed: false)
    public static let objectIdentifier = ASN1Tag(.universal, 6, constructed: false)
    public static let enumerated = ASN1Tag(.universal, 10, constructed: false)
    public static let utf8String = ASN1Tag(.universal, 12, constructed: false)
    public static let sequence = ASN1Tag(.universal, 16, constructed: true)
    public static let set = ASN1Tag(.universal, 17, constructed: true)
    public static let numericString = ASN1Tag(.universal, 18, constructed: false)
    public static let printableString = ASN1Tag(.universal, 19, constructed: false)
    public static let teletexString = ASN1Tag(.universal, 20, constructed: false)
    public static let ia5String = ASN1Tag(.universal, 22, constructed: false)
    public static let utcTime = ASN1Tag(.universal, 23, constructed: false)
    public static let generalizedTime = ASN1Tag(.universal, 24, constructed: false)
    public static let visibleString = ASN1Tag(.universal, 26, constructed: false)
    public static let universalString = ASN1Tag(.universal, 28, constructed: false)
    public static let bmpString = ASN1Tag(.universal, 30, constructed: false)

    /// The name `openssl asn1parse` prints: `SEQUENCE`, `INTEGER`, `cont [ 0 ]` is printed by
    /// OpenSSL with spaces; Coffer prints `cont [0]`, `appl [3]`, `priv [1]`.
    public var name: String {
        switch tagClass {
        case .universal: ASN1Tag.universalName(number)
        case .application: "appl [\(number)]"
        case .contextSpecific: "cont [\(number)]"
        case .private: "priv [\(number)]"
        }
    }

    public var description: String { name }

    static func universalName(_ number: UInt64) -> String {
        switch number {
        case 0: "EOC"
        case 1: "BOOLEAN"
        case 2: "INTEGER"
        case 3: "BIT STRING"
        case 4: "OCTET STRING"
        case 5: "NULL"
        case 6: "OBJECT IDENTIFIER"
        case 7: "OBJECT DESCRIPTOR"
        case 8: "EXTERNAL"
        case 9: "REAL"
        case 10: "ENUMERATED"
        case 11: "EMBEDDED PDV"
        case 12: "UTF8STRING"
        case 13: "RELATIVE-OID"
        case 16: "SEQUENCE"
        case 17: "SET"
        case 18: "NUMERICSTRING"
        case 19: "PRINTABLESTRING"
        case 20: "T61STRING"
        case 21: "VIDEOTEXSTRING"
        case 22: "IA5STRING"
        case 23: "UTCTIME"
        case 24: "GENERALIZEDTIME"
        case 25: "GRAPHICSTRING"
        case 26: "VISIBLESTRING"
        case 27: "GENERALSTRING"
        case 28: "UNIVERSALSTRING"
        case 29: "CHARACTER STRING"
        case 30: "BMPSTRING"
        default: "univ [\(number)]"
        }
    }

    /// Whether DER requires this universal type to be primitive (everything but SEQUENCE, SET and
    /// the three types that are always constructed).
    var universalMustBePrimitive: Bool {
        tagClass == .universal && ![8, 11, 16, 17, 29].contains(number)
    }

    /// Whether this universal type is always constructed (SEQUENCE, SET, EXTERNAL, EMBEDDED PDV, CHARACTER STRING).
    var universalMustBeConstructed: Bool {
        tagClass == .universal && [8, 11, 16, 17, 29].contains(number)
    }
}
