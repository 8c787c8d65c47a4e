// Typed reads: each reads one element, checks its tag (the universal one unless an IMPLICIT tag is
// given) and decodes its content. The cursor moves only when both succeed.

extension DERReader {
    /// Reads a BOOLEAN.
    @inlinable
    public mutating func readBoolean(tag: ASN1Tag = .boolean) throws -> Bool {
        var copy = self
        let value = try copy.readElement(tag).boolean(rules: options.rules)
        self = copy
        return value
    }

    /// Reads a NULL.
    @inlinable
    public mutating func readNull(tag: ASN1Tag = .null) throws {
        var copy = self
        try copy.readElement(tag).null()
        self = copy
    }

    /// Reads an INTEGER as a fixed-width integer.
    @inlinable
    public mutating func readInteger<T: FixedWidthInteger>(as type: T.Type = T.self, tag: ASN1Tag = .integer) throws -> T {
        var copy = self
        let value = try copy.readElement(tag).integer(as: T.self)
        self = copy
        return value
    }

    /// Reads a non-negative INTEGER of any size as its big-endian magnitude (a slice of the input).
    @inlinable
    public mutating func readUnsignedInteger(tag: ASN1Tag = .integer) throws -> ArraySlice<UInt8> {
        var copy = self
        let value = try copy.readElement(tag).unsignedIntegerBytes()
        self = copy
        return value
    }

    /// Reads an OCTET STRING's content (a slice of the input).
    @inlinable
    public mutating func readOctetString(tag: ASN1Tag = .octetString) throws -> ArraySlice<UInt8> {
        try readElement(tag).content
    }

    /// Reads a BIT STRING.
    @inlinable
    public mutating func readBitString(tag: ASN1Tag = .bitString) throws -> ASN1BitString {
        var copy = self
        let value = try copy.readElement(tag).bitString(rules: options.rules)
        self = copy
        return value
    }

    /// Reads an OBJECT IDENTIFIER.
    @inlinable
    public mutating func readObjectIdentifier(tag: ASN1Tag = .objectIdentifier) throws -> ASN1ObjectIdentifier {
        var copy = self
        let value = try copy.readElement(tag).objectIdentifier()
        self = copy
        return value
    }

    /// Reads a character string of the given universal type (or IMPLICIT `tag` over it).
    @inlinable
    public mutating func readString(_ type: ASN1Tag, tag: ASN1Tag? = nil) throws -> String {
        var copy = self
        let value = try copy.readElement(tag ?? type).string(as: type)
        self = copy
        return value
    }

    /// Reads a UTCTime or GeneralizedTime, whichever comes next.
    @inlinable
    public mutating func readTime() throws -> ASN1Time {
        var copy = self
        let element = try copy.readElement()
        guard element.tag == .utcTime || element.tag == .generalizedTime else {
            throw ASN1Error(.unexpectedTag, at: element.offset, "expected UTCTIME or GENERALIZEDTIME at offset \(element.offset), found \(element.tag.name)")
        }
        let value = try element.time()
        self = copy
        return value
    }

    /// Reads a SET OF (or IMPLICIT `tag` over one), checking in DER mode that the elements are in
    /// ascending order of their encodings (X.690 §11.6), and hands each element to `body`.
    @inlinable
    public mutating func readSetOf<T>(tag: ASN1Tag = .set, _ body: (inout DERReader) throws -> T) throws -> [T] {
        try readConstructed(tag) { set in
            var results: [T] = []
            var previous: ArraySlice<UInt8>?
            while !set.isAtEnd {
                let start = set.remaining.startIndex
                var probe = set
                let element = try probe.readElement()
                let encoding = set.remaining[start..<probe.remaining.startIndex]
                if set.options.isDER, let previous, !DERReader.inSetOrder(previous, encoding) {
                    throw ASN1Error(.unsortedSet, at: element.offset,
                                    "SET OF element at offset \(element.offset) is out of DER order")
                }
                previous = encoding
                results.append(try body(&set))
                if set.remaining.startIndex != probe.remaining.startIndex {
                    throw ASN1Error(.trailingData, at: element.offset, "SET OF element at offset \(element.offset) was not read whole")
                }
            }
            return results
        }
    }

    /// X.690 §11.6: encodings compared as octet strings, the shorter padded with zeros at the end.
    @usableFromInline
    static func inSetOrder(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        var i = a.startIndex
        var j = b.startIndex
        while i < a.endIndex || j < b.endIndex {
            let x = i < a.endIndex ? a[i] : 0
            let y = j < b.endIndex ? b[j] : 0
            if x != y { return x < y }
            i += 1
            j += 1
        }
        return true
    }
}
