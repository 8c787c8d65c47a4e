import CofferErrors

// Typed writes, each producing the DER form of its universal type (or an IMPLICIT tag over it).

extension DERWriter {
    /// Writes a BOOLEAN (0xFF for true, as DER requires).
    public mutating func writeBoolean(_ value: Bool, tag: ASN1Tag = .boolean) {
        writePrimitive(tag, content: CollectionOfOne(value ? 0xFF : 0x00))
    }

    /// Writes a NULL.
    public mutating func writeNull(tag: ASN1Tag = .null) {
        writePrimitive(tag, content: EmptyCollection())
    }

    /// Writes an INTEGER in minimal two's complement.
    @inlinable
    public mutating func writeInteger<T: FixedWidthInteger>(_ value: T, tag: ASN1Tag = .integer) {
        precondition(!tag.isConstructed, "writePrimitive needs a primitive tag")
        let width = T.bitWidth / 8
        // Octet i of the big-endian form (0 is the most significant), computed instead of stored so
        // that writing an integer allocates nothing.
        func octet(_ i: Int) -> UInt8 { UInt8(truncatingIfNeeded: value >> (8 * (width - 1 - i))) }
        var start = 0
        while start < width - 1 {
            let (a, b) = (octet(start), octet(start + 1))
            let redundantZero = a == 0x00 && (b & 0x80 == 0 || !T.isSigned)
            let redundantOnes = T.isSigned && a == 0xFF && b & 0x80 != 0
            if redundantZero || redundantOnes { start += 1 } else { break }
        }
        let signOctet = !T.isSigned && octet(start) & 0x80 != 0
        DERWriter.appendHeader(tag: tag, length: width - start + (signOctet ? 1 : 0), to: &content)
        if signOctet { content.append(0) }
        for i in start..<width { content.append(octet(i)) }
    }

    /// Writes a non-negative INTEGER from its big-endian magnitude: leading zero octets are dropped
    /// and a 0x00 sign octet is added when the high bit is set. An empty magnitude writes zero.
    @inlinable
    public mutating func writeUnsignedInteger<C: Collection<UInt8>>(_ magnitude: C, tag: ASN1Tag = .integer) {
        let trimmed = magnitude.drop(while: { $0 == 0 })
        if trimmed.isEmpty {
            writePrimitive(tag, content: CollectionOfOne(UInt8(0)))
        } else if trimmed.first! & 0x80 != 0 {
            DERWriter.appendHeader(tag: tag, length: trimmed.count + 1, to: &content)
            content.append(0)
            content.append(contentsOf: trimmed)
        } else {
            writePrimitive(tag, content: trimmed)
        }
    }

    /// Writes an OCTET STRING.
    @inlinable
    public mutating func writeOctetString<C: Collection<UInt8>>(_ bytes: C, tag: ASN1Tag = .octetString) {
        writePrimitive(tag, content: bytes)
    }

    /// Writes a BIT STRING.
    public mutating func writeBitString(_ value: ASN1BitString, tag: ASN1Tag = .bitString) {
        DERWriter.appendHeader(tag: tag, length: value.bytes.count + 1, to: &content)
        content.append(value.unusedBits)
        content.append(contentsOf: value.bytes)
    }

    /// Writes an OBJECT IDENTIFIER.
    public mutating func writeObjectIdentifier(_ oid: ASN1ObjectIdentifier, tag: ASN1Tag = .objectIdentifier) {
        writePrimitive(tag, content: oid.encoded)
    }

    /// Writes a character string of a universal string type (UTF8String, PrintableString,
    /// IA5String, VisibleString, NumericString, BMPString), checking its character set.
    public mutating func writeString(_ text: String, type: ASN1Tag = .utf8String, tag: ASN1Tag? = nil) throws {
        let bytes: [UInt8]
        switch type.number {
        case 30:
            var units: [UInt8] = []
            for scalar in text.unicodeScalars {
                guard scalar.value <= 0xFFFF else {
                    throw ASN1Error(.invalidString, "BMPSTRING cannot hold a character beyond U+FFFF")
                }
                units += [UInt8(scalar.value >> 8), UInt8(scalar.value & 0xFF)]
            }
            bytes = units
        default:
            bytes = Array(text.utf8)
        }
        // Validate by decoding what would be written.
        let element = ASN1Element(tag: type, offset: 0, headerLength: 0, content: bytes[...])
        _ = try element.string()
        writePrimitive(tag ?? type, content: bytes)
    }

    /// Writes every node of a parsed tree back out; a valid DER tree comes out byte-identical.
    public mutating func writeTree(_ tree: ASN1Tree) {
        writeNodes(tree.nodes[...])
    }

    private mutating func writeNodes(_ nodes: ArraySlice<ASN1Node>) {
        var index = nodes.startIndex
        while index < nodes.endIndex {
            let node = nodes[index]
            var end = index + 1
            while end < nodes.endIndex && nodes[end].depth > node.depth { end += 1 }
            if node.tag.isConstructed {
                writeConstructed(node.tag) { $0.writeNodes(nodes[(index + 1)..<end]) }
            } else {
                writePrimitive(node.tag, content: node.element.content)
            }
            index = end
        }
    }
}
