import CofferErrors

/// One TLV as it sits in the input: identifier, lengths, and the content bytes.
///
/// The content is a slice of the caller's array: nothing is copied. Its indices are those of the
/// original array.
public struct ASN1Element: Sendable {
    /// Class, number and constructed bit.
    public let tag: ASN1Tag
    /// Byte offset of the identifier, counted from the start of the input given to the reader.
    public let offset: Int
    /// Identifier octets plus length octets.
    public let headerLength: Int
    /// The content octets (for an indefinite-length value, without the end-of-contents octets).
    public let content: ArraySlice<UInt8>
    /// Whether the value used the BER indefinite length form (only in lenient BER mode).
    public let isIndefiniteLength: Bool

    @inlinable
    init(tag: ASN1Tag, offset: Int, headerLength: Int, content: ArraySlice<UInt8>, isIndefiniteLength: Bool = false) {
        self.tag = tag
        self.offset = offset
        self.headerLength = headerLength
        self.content = content
        self.isIndefiniteLength = isIndefiniteLength
    }

    /// The number of content octets.
    @inlinable public var length: Int { content.count }
    /// Byte offset of the first content octet.
    @inlinable public var contentOffset: Int { offset + headerLength }
    /// Header, content and (for indefinite length) the two end-of-contents octets.
    @inlinable public var encodedLength: Int { headerLength + content.count + (isIndefiniteLength ? 2 : 0) }

    /// Throws ``CofferErrors/ErrorCode/unexpectedTag`` unless the element has `expected` as its
    /// tag.
    @inlinable
    public func require(_ expected: ASN1Tag) throws {
        guard tag == expected else { throw ASN1Error.unexpected(tag, expected: expected, at: offset) }
    }
}

extension ASN1Error {
    @usableFromInline
    static func unexpected(_ tag: ASN1Tag, expected: ASN1Tag, at offset: Int) -> ASN1Error {
        let form = { (t: ASN1Tag) in t.isConstructed ? "constructed" : "primitive" }
        if tag.tagClass == expected.tagClass && tag.number == expected.number {
            return ASN1Error(.invalidConstruction, "\(tag.name) at offset \(offset) is \(form(tag)), expected \(form(expected))", offset: offset)
        }
        return ASN1Error(.unexpectedTag, "expected \(expected.name) at offset \(offset), found \(tag.name)", offset: offset)
    }
}
