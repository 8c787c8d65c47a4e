import CofferErrors

/// A cursor over DER (or, when asked, lenient BER) that reads one TLV at a time.
///
/// The reader borrows the caller's bytes: elements and values are slices of the input, and nothing
/// is copied unless a typed accessor has to build a new value (a `String`, an OID's dotted form).
/// `peek…` never moves the cursor; `read…` moves it only when it succeeds.
///
/// ```swift
/// var reader = DERReader(bytes)
/// let (n, e) = try reader.readSequence { seq in
///     (try seq.readUnsignedInteger(), try seq.readUnsignedInteger())
/// }
/// try reader.finish()
/// ```
public struct DERReader: Sendable {
    /// The bytes not read yet; indices are those of the input array.
    @inlinable public var remaining: ArraySlice<UInt8> { window[position...] }
    /// Everything this reader may read (the input, or the content of the element it was made for);
    /// never changes, so moving the cursor is integer arithmetic with no reference counting.
    @usableFromInline let window: ArraySlice<UInt8>
    /// The index (of the input array) of the next unread byte.
    @usableFromInline var position: Int
    /// The index of the input that counts as offset 0.
    @usableFromInline let origin: Int
    /// The rules and limits in force.
    public let options: ASN1ParsingOptions
    /// Nesting depth of the elements this reader returns (0 at the top).
    public let depth: Int

    /// Creates a reader over `bytes`; offsets in errors count from `bytes.startIndex`.
    @inlinable
    public init(_ bytes: ArraySlice<UInt8>, options: ASN1ParsingOptions = .der) {
        self.window = bytes
        self.position = bytes.startIndex
        self.origin = bytes.startIndex
        self.options = options
        self.depth = 0
    }

    /// Creates a reader over a whole array.
    @inlinable
    public init(_ bytes: [UInt8], options: ASN1ParsingOptions = .der) {
        self.init(bytes[...], options: options)
    }

    @inlinable
    init(child content: ArraySlice<UInt8>, origin: Int, options: ASN1ParsingOptions, depth: Int) {
        self.window = content
        self.position = content.startIndex
        self.origin = origin
        self.options = options
        self.depth = depth
    }

    /// Whether every byte has been read.
    @inlinable public var isAtEnd: Bool { position == window.endIndex }

    /// The offset of the next unread byte.
    @inlinable public var offset: Int { position - origin }

    /// The tag of the next element, or `nil` at the end. Does not move the cursor.
    @inlinable
    public func peekTag() throws -> ASN1Tag? {
        guard position < window.endIndex else { return nil }
        return try ASN1HeaderParser.parse(window, at: position, origin: origin, rules: options.rules).tag
    }

    /// Reads the next element, whatever its tag.
    @inlinable @inline(__always)
    public mutating func readElement() throws -> ASN1Element {
        let start = position
        let header = try ASN1HeaderParser.parse(window, at: start, origin: origin, rules: options.rules)
        let contentStart = start + header.headerLength
        if let length = header.contentLength {
            let contentEnd = contentStart + length
            position = contentEnd
            return ASN1Element(tag: header.tag, offset: start - origin, headerLength: header.headerLength,
                               content: window[contentStart..<contentEnd])
        }
        return try readIndefiniteLengthElement(start: start, header: header)
    }

    /// Lenient BER, indefinite length: the content runs to the matching end-of-contents octets.
    /// Kept out of line so that `readElement()` stays small enough to inline.
    @usableFromInline @inline(never)
    mutating func readIndefiniteLengthElement(start: Int, header: ASN1HeaderParser.Header) throws -> ASN1Element {
        let contentStart = start + header.headerLength
        let contentEnd = try endOfIndefiniteContent(from: contentStart, depth: depth + 1, headerOffset: start - origin)
        position = contentEnd + 2
        return ASN1Element(tag: header.tag, offset: start - origin, headerLength: header.headerLength,
                           content: window[contentStart..<contentEnd], isIndefiniteLength: true)
    }

    /// Reads the next element and checks its tag (class, number and constructed bit).
    @inlinable
    public mutating func readElement(_ expected: ASN1Tag) throws -> ASN1Element {
        let start = position
        let element = try readElement()
        guard element.tag == expected else {
            position = start
            throw ASN1Error.unexpected(element.tag, expected: expected, at: element.offset)
        }
        return element
    }

    /// Reads the next element if it has the given tag; returns `nil` (cursor unmoved) otherwise.
    @inlinable
    public mutating func readOptionalElement(_ expected: ASN1Tag) throws -> ASN1Element? {
        guard let tag = try peekTag(), tag == expected else { return nil }
        return try readElement()
    }

    /// A reader over the content of a constructed element, one level deeper.
    @inlinable
    public func reader(for element: ASN1Element) throws -> DERReader {
        guard element.tag.isConstructed else {
            throw ASN1Error(.invalidConstruction, "\(element.tag.name) at offset \(element.offset) is primitive, expected constructed", offset: element.offset)
        }
        let childDepth = depth + 1
        guard childDepth < options.maximumDepth else {
            throw ASN1Error(.depthExceeded, "nesting at offset \(element.offset) exceeds the limit of \(options.maximumDepth) levels", offset: element.offset)
        }
        return DERReader(child: element.content, origin: origin, options: options, depth: childDepth)
    }

    /// Reads a constructed element with tag `tag` and hands its content to `body`, which must read
    /// all of it.
    @inlinable
    public mutating func readConstructed<T>(_ tag: ASN1Tag, _ body: (inout DERReader) throws -> T) throws -> T {
        // Fast path: a common-form header with the right tag, within the depth limit. The child
        // reader is made straight from the header, without an intermediate element.
        if tag.isConstructed, depth + 1 < options.maximumDepth,
           let header = ASN1HeaderParser.parseCommonForm(window, at: position), header.tag == tag,
           let length = header.contentLength {
            let contentStart = position + header.headerLength
            let contentEnd = contentStart + length
            var child = DERReader(child: window[contentStart..<contentEnd], origin: origin, options: options, depth: depth + 1)
            let result = try body(&child)
            if !child.isAtEnd {
                let element = ASN1Element(tag: header.tag, offset: position - origin, headerLength: header.headerLength,
                                          content: window[contentStart..<contentEnd])
                try child.finish(inside: element)
            }
            position = contentEnd
            return result
        }
        return try readConstructedElement(tag, body)
    }

    @inlinable
    mutating func readConstructedElement<T>(_ tag: ASN1Tag, _ body: (inout DERReader) throws -> T) throws -> T {
        let start = position
        let element = try readElement(tag)
        do {
            var child = try reader(for: element)
            let result = try body(&child)
            try child.finish(inside: element)
            return result
        } catch {
            position = start
            throw error
        }
    }

    /// Reads a SEQUENCE and hands its content to `body`, which must read all of it.
    @inlinable
    public mutating func readSequence<T>(_ body: (inout DERReader) throws -> T) throws -> T {
        try readConstructed(.sequence, body)
    }

    /// Reads an EXPLICIT `[number]` wrapper and hands its content to `body`.
    @inlinable
    public mutating func readExplicit<T>(_ number: UInt64, _ body: (inout DERReader) throws -> T) throws -> T {
        try readConstructed(.context(number, constructed: true), body)
    }

    /// Reads an optional EXPLICIT `[number]` wrapper; `nil` when the next element is something else.
    @inlinable
    public mutating func readOptionalExplicit<T>(_ number: UInt64, _ body: (inout DERReader) throws -> T) throws -> T? {
        guard let tag = try peekTag(), tag == .context(number, constructed: true) else { return nil }
        return try readConstructed(.context(number, constructed: true), body)
    }

    /// Throws ``CofferErrors/ErrorCode/trailingData`` unless every byte was read.
    @inlinable
    public func finish() throws {
        guard isAtEnd else {
            throw ASN1Error(.trailingData, "\(window.endIndex - position) bytes of trailing data at offset \(offset) after the last value", offset: offset)
        }
    }

    @inlinable
    func finish(inside element: ASN1Element) throws {
        guard isAtEnd else {
            throw ASN1Error(.trailingData, "\(window.endIndex - position) unexpected bytes at offset \(offset) at the end of \(element.tag.name) at offset \(element.offset)", offset: offset)
        }
    }

    /// Finds the end-of-contents octets that close an indefinite-length value whose content starts
    /// at `start`, walking (and so validating) the nested values. Returns the index of the EOC.
    @usableFromInline
    func endOfIndefiniteContent(from start: Int, depth: Int, headerOffset: Int) throws -> Int {
        guard depth < options.maximumDepth else {
            throw ASN1Error(.depthExceeded, "nesting at offset \(headerOffset) exceeds the limit of \(options.maximumDepth) levels", offset: headerOffset)
        }
        var index = start
        let end = window.endIndex
        while true {
            guard end - index >= 2 else {
                throw ASN1Error(.truncated, "indefinite-length value at offset \(headerOffset) has no end-of-contents octets", offset: headerOffset)
            }
            if window[index] == 0 && window[index + 1] == 0 { return index }
            let header = try ASN1HeaderParser.parse(window, at: index, origin: origin, rules: options.rules)
            let contentStart = index + header.headerLength
            if let length = header.contentLength {
                index = contentStart + length
            } else {
                index = try endOfIndefiniteContent(from: contentStart, depth: depth + 1, headerOffset: index - origin) + 2
            }
        }
    }
}
