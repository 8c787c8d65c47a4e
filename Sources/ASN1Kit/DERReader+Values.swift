import CofferErrors

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
    @inlinable @inline(__always)
    public mutating func readInteger<T: FixedWidthInteger>(as type: T.Type = T.self, tag: ASN1Tag = .integer) throws -> T {
        // Fast path: a common-form header and a value that fits; anything else (including every
        // error) goes through the element decoder, which reports it.
        if let header = ASN1HeaderParser.parseCommonForm(window, at: position), header.tag == tag,
           let length = header.contentLength {
            let start = position + header.headerLength
            if let value = DERReader.fixedWidthInteger(window, from: start, to: start + length, as: T.self) {
                position = start + length
                return value
            }
        }
        return try readIntegerElement(as: T.self, tag: tag)
    }

    @usableFromInline
    mutating func readIntegerElement<T: FixedWidthInteger>(as type: T.Type, tag: ASN1Tag) throws -> T {
        var copy = self
        let value = try copy.readElement(tag).integer(as: T.self)
        self = copy
        return value
    }

    /// Reads a non-negative INTEGER of any size as its big-endian magnitude (a slice of the input).
    @inlinable @inline(__always)
    public mutating func readUnsignedInteger(tag: ASN1Tag = .integer) throws -> ArraySlice<UInt8> {
        // Fast path as in readInteger: the magnitude is sliced straight from the input.
        if let header = ASN1HeaderParser.parseCommonForm(window, at: position), header.tag == tag,
           let length = header.contentLength {
            let start = position + header.headerLength
            let end = start + length
            if let magnitudeStart = DERReader.unsignedMagnitudeStart(window, from: start, to: end) {
                position = end
                return window[magnitudeStart..<end]
            }
        }
        return try readUnsignedIntegerElement(tag: tag)
    }

    @usableFromInline @inline(never)
    mutating func readUnsignedIntegerElement(tag: ASN1Tag) throws -> ArraySlice<UInt8> {
        var copy = self
        let value = try copy.readElement(tag).unsignedIntegerBytes()
        self = copy
        return value
    }

    /// Where the magnitude of the INTEGER content `bytes[start..<end]` starts, when the content is a
    /// valid (minimal, non-empty) non-negative INTEGER; `nil` otherwise. The same rules as
    /// ``ASN1Element/unsignedIntegerBytes()``, without building an element.
    @inlinable @inline(__always)
    static func unsignedMagnitudeStart(_ bytes: ArraySlice<UInt8>, from start: Int, to end: Int) -> Int? {
        guard end > start else { return nil }
        let first = bytes[start]
        guard first & 0x80 == 0 else { return nil }
        guard first == 0, end - start > 1 else { return start }
        // A leading 0x00 is only minimal when the next octet has its high bit set.
        return bytes[start + 1] & 0x80 != 0 ? start + 1 : nil
    }

    /// The value of the INTEGER content `bytes[start..<end]` as `T`, when it is valid (minimal,
    /// non-empty) and fits; `nil` otherwise. The same rules as ``ASN1Element/integer(as:)``.
    @inlinable @inline(__always)
    static func fixedWidthInteger<T: FixedWidthInteger>(_ bytes: ArraySlice<UInt8>, from start: Int, to end: Int, as type: T.Type) -> T? {
        guard end > start else { return nil }
        let first = bytes[start]
        if end - start > 1 {
            let second = bytes[start + 1]
            if (first == 0x00 && second & 0x80 == 0) || (first == 0xFF && second & 0x80 != 0) { return nil }
        }
        let negative = first & 0x80 != 0
        if negative && !T.isSigned { return nil }
        var index = start
        if !T.isSigned && end - index > 1 && first == 0 { index += 1 }
        guard end - index <= T.bitWidth / 8 else { return nil }
        var value: T = negative ? ~0 : 0
        while index < end {
            value = (value << 8) | T(truncatingIfNeeded: bytes[index])
            index += 1
        }
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
            throw ASN1Error(.unexpectedTag, "expected UTCTIME or GENERALIZEDTIME at offset \(element.offset), found \(element.tag.name)", offset: element.offset)
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
                    throw ASN1Error(.unsortedSet, "SET OF element at offset \(element.offset) is out of DER order", offset: element.offset)
                }
                previous = encoding
                results.append(try body(&set))
                if set.remaining.startIndex != probe.remaining.startIndex {
                    throw ASN1Error(.trailingData, "SET OF element at offset \(element.offset) was not read whole", offset: element.offset)
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
