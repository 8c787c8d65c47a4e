/// One node of a parsed tree, in a flat list in document order: the element and its depth.
public struct ASN1Node: Sendable {
    /// The TLV.
    public let element: ASN1Element
    /// Nesting depth (0 for a top-level value).
    public let depth: Int

    /// Class, number and constructed bit.
    public var tag: ASN1Tag { element.tag }
    /// Byte offset of the identifier.
    public var offset: Int { element.offset }
    /// Identifier plus length octets.
    public var headerLength: Int { element.headerLength }
    /// Content length.
    public var length: Int { element.length }
}
