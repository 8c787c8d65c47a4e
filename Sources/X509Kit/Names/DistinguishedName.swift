import ASN1Kit
import CofferErrors
import AsymmetricKeys

/// An X.501 `Name` as certificates and requests carry it (RFC 5280 §4.1.2.4), with its RFC 4514
/// string.
///
/// ```
/// Name ::= CHOICE { rdnSequence RDNSequence }
/// RDNSequence ::= SEQUENCE OF RelativeDistinguishedName
/// RelativeDistinguishedName ::= SET SIZE (1..MAX) OF AttributeTypeAndValue
/// AttributeTypeAndValue ::= SEQUENCE { type AttributeType, value AttributeValue }
/// AttributeType ::= OBJECT IDENTIFIER
/// AttributeValue ::= ANY -- DEFINED BY AttributeType
/// ```
public struct DistinguishedName: Sendable, Hashable, CustomStringConvertible {
    /// One `AttributeTypeAndValue`: the type and the value's DER, kept as it was encoded.
    public struct Attribute: Sendable, Hashable {
        /// The attribute type (`2.5.4.3` is commonName).
        public var type: ASN1ObjectIdentifier
        /// The value's tag (UTF8String, PrintableString, …).
        public var valueTag: ASN1Tag
        /// The value's content octets.
        public var value: [UInt8]
        /// The whole value TLV (tag, length, content), as `#hex` dumps it.
        public var valueDER: [UInt8]

        /// Creates an attribute from its type and its value's tag, content and whole TLV.
        public init(type: ASN1ObjectIdentifier, valueTag: ASN1Tag, value: [UInt8], valueDER: [UInt8]) {
            self.type = type
            self.valueTag = valueTag
            self.value = value
            self.valueDER = valueDER
        }
    }

    /// The relative distinguished names in encoding order (most significant first, usually
    /// `C` … `CN`); each holds one attribute, or several for a multi-valued RDN.
    public var relativeNames: [[Attribute]]

    /// The most RDNs a name may have: hostile inputs cannot make the parser build large arrays.
    public static let maximumRelativeNames = 128
    /// The most attributes one RDN may have.
    public static let maximumAttributesPerRelativeName = 32

    /// Creates a name from its RDNs, most significant first.
    public init(relativeNames: [[Attribute]]) {
        self.relativeNames = relativeNames
    }

    /// Reads a `Name` at the reader's cursor.
    ///
    /// - Throws: ``ASN1Error`` for bad DER (including a SET OF out of DER order), ``KeyError``
    ///   `.malformed` for an empty RDN and for too many RDNs or attributes.
    package static func read(from reader: inout DERReader) throws -> DistinguishedName {
        try reader.readSequence { sequence in
            var names: [[Attribute]] = []
            while !sequence.isAtEnd {
                let offset = sequence.offset
                guard names.count < maximumRelativeNames else {
                    throw KeyError(.malformed, "the Name has more than \(maximumRelativeNames) relative distinguished names (at offset \(offset))", offset: offset)
                }
                var count = 0
                let rdn = try sequence.readSetOf { set in
                    count += 1
                    guard count <= maximumAttributesPerRelativeName else {
                        throw KeyError(.malformed, "the relative distinguished name at offset \(offset) has more than \(maximumAttributesPerRelativeName) attributes", offset: set.offset)
                    }
                    return try set.readSequence { pair in
                        let type = try pair.readObjectIdentifier()
                        let before = pair.remaining
                        let element = try pair.readElement()
                        return Attribute(type: type, valueTag: element.tag, value: Array(element.content),
                                         valueDER: Array(before[before.startIndex..<pair.remaining.startIndex]))
                    }
                }
                guard !rdn.isEmpty else {
                    throw KeyError(.malformed, "the relative distinguished name at offset \(offset) is an empty SET", offset: offset)
                }
                names.append(rdn)
            }
            return DistinguishedName(relativeNames: names)
        }
    }

    /// Whether the name has no RDN at all.
    public var isEmpty: Bool { relativeNames.isEmpty }

    /// The name as RFC 4514 text, exactly as `openssl x509 -nameopt RFC2253` prints it.
    public var description: String { rfc4514String }
}
