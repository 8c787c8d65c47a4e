import CofferErrors

/// A whole parsed document: every TLV in document order with its depth.
///
/// In DER mode the tree is also validated: constructed/primitive forms, BOOLEAN, INTEGER, NULL,
/// BIT STRING, OBJECT IDENTIFIER, string character sets, times and SET OF order, so a tree that
/// parses is valid DER. The input holds exactly one top-level value; anything after it is an error.
public struct ASN1Tree: Sendable {
    /// Every node, parents before their children.
    public let nodes: [ASN1Node]
    /// The rules the tree was parsed with.
    public let options: ASN1ParsingOptions

    /// Parses `bytes`.
    public init(parsing bytes: ArraySlice<UInt8>, options: ASN1ParsingOptions = .der) throws {
        var reader = DERReader(bytes, options: options)
        var nodes: [ASN1Node] = []
        let top = try reader.readElement()
        try ASN1Tree.walk(top, reader: reader, depth: 0, into: &nodes)
        try reader.finish()
        self.nodes = nodes
        self.options = options
    }

    /// Parses a whole array.
    public init(parsing bytes: [UInt8], options: ASN1ParsingOptions = .der) throws {
        try self.init(parsing: bytes[...], options: options)
    }

    private static func walk(_ element: ASN1Element, reader parent: DERReader, depth: Int, into nodes: inout [ASN1Node]) throws {
        nodes.append(ASN1Node(element: element, depth: depth))
        let options = parent.options
        if options.isDER { try validateForm(element) }
        guard element.tag.isConstructed else {
            if options.isDER { try validateValue(element) }
            return
        }
        var child = try parent.reader(for: element)
        var previous: ArraySlice<UInt8>?
        while !child.isAtEnd {
            let start = child.remaining.startIndex
            let next = try child.readElement()
            if options.isDER && element.tag == .set {
                let encoding = element.content[start..<child.remaining.startIndex]
                if let previous, !DERReader.inSetOrder(previous, encoding) {
                    throw ASN1Error(.unsortedSet, "SET element at offset \(next.offset) is out of DER order", offset: next.offset)
                }
                previous = encoding
            }
            try walk(next, reader: child, depth: depth + 1, into: &nodes)
        }
    }

    private static func validateForm(_ element: ASN1Element) throws {
        let tag = element.tag
        if tag.isConstructed && tag.universalMustBePrimitive {
            throw ASN1Error(.invalidConstruction, "\(tag.name) at offset \(element.offset) is constructed, which DER forbids", offset: element.offset)
        }
        if !tag.isConstructed && tag.universalMustBeConstructed {
            throw ASN1Error(.invalidConstruction, "\(tag.name) at offset \(element.offset) is primitive, but must be constructed", offset: element.offset)
        }
    }

    /// Checks the content of universal primitive types.
    private static func validateValue(_ element: ASN1Element) throws {
        guard element.tag.tagClass == .universal else { return }
        switch element.tag.number {
        case 0: throw ASN1Error(.invalidLength, "end-of-contents octets at offset \(element.offset) outside an indefinite-length value", offset: element.offset)
        case 1: _ = try element.boolean()
        case 2, 10: _ = try element.integerBytes()
        case 3: _ = try element.bitString()
        case 5: try element.null()
        case 6: _ = try element.objectIdentifier()
        case 23, 24: _ = try element.time()
        case let n where ASN1Element.stringTagNumbers.contains(n): _ = try element.string()
        default: break
        }
    }
}
