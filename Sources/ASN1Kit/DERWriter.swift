/// Builds DER in one pass, in time linear in the output size.
///
/// Content bytes are appended to one buffer as they are written. A constructed value does not know
/// its length until it closes, so instead of shifting bytes to make room for its header (quadratic on
/// deep trees), the writer records a *mark*: the buffer position where the header belongs and, once the
/// value closes, its tag and content length. ``finish()`` then interleaves headers and content into
/// the output in a single copy.
///
/// ```swift
/// var writer = DERWriter()
/// writer.writeSequence { seq in
///     seq.writeUnsignedInteger(modulus)
///     seq.writeUnsignedInteger(exponent)
/// }
/// let der = writer.finish()
/// ```
public struct DERWriter: Sendable {
    @usableFromInline
    struct Mark: Sendable {
        /// Where the header goes in `content`.
        @usableFromInline var position: Int
        @usableFromInline var tag: ASN1Tag
        /// Content bytes plus the headers of nested constructed values, once closed.
        @usableFromInline var length: Int = 0
        /// Header bytes of nested constructed values (they are not in `content`).
        @usableFromInline var nestedHeaderBytes: Int = 0

        @inlinable init(position: Int, tag: ASN1Tag) {
            self.position = position
            self.tag = tag
        }
    }

    @usableFromInline var content: [UInt8]
    @usableFromInline var marks: [Mark] = []
    @usableFromInline var open: [Int] = []

    /// Creates a writer; `capacity` is a hint for the output size.
    @inlinable
    public init(capacity: Int = 256) {
        content = []
        content.reserveCapacity(capacity)
    }

    /// Writes a constructed value with tag `tag` whose content `body` writes.
    @inlinable
    public mutating func writeConstructed(_ tag: ASN1Tag, _ body: (inout DERWriter) throws -> Void) rethrows {
        precondition(tag.isConstructed, "writeConstructed needs a constructed tag")
        let index = marks.count
        marks.append(Mark(position: content.count, tag: tag))
        open.append(index)
        try body(&self)
        open.removeLast()
        let nested = marks[index].nestedHeaderBytes
        let length = content.count - marks[index].position + nested
        marks[index].length = length
        if let parent = open.last {
            marks[parent].nestedHeaderBytes += DERWriter.headerSize(tag: tag, length: length) + nested
        }
    }

    /// Writes a SEQUENCE whose content `body` writes.
    @inlinable
    public mutating func writeSequence(_ body: (inout DERWriter) throws -> Void) rethrows {
        try writeConstructed(.sequence, body)
    }

    /// Writes an EXPLICIT `[number]` wrapper around what `body` writes.
    @inlinable
    public mutating func writeExplicit(_ number: UInt64, _ body: (inout DERWriter) throws -> Void) rethrows {
        try writeConstructed(.context(number, constructed: true), body)
    }

    /// Writes a primitive value with the given tag and content octets.
    @inlinable
    public mutating func writePrimitive<C: Collection<UInt8>>(_ tag: ASN1Tag, content bytes: C) {
        precondition(!tag.isConstructed, "writePrimitive needs a primitive tag")
        DERWriter.appendHeader(tag: tag, length: bytes.count, to: &content)
        content.append(contentsOf: bytes)
    }

    /// Copies an already-encoded TLV (for example an element read from other DER) unchanged.
    @inlinable
    public mutating func writeEncoded<C: Collection<UInt8>>(_ encoded: C) {
        content.append(contentsOf: encoded)
    }

    /// The DER bytes. The writer must not be inside a constructed value.
    public func finish() -> [UInt8] {
        precondition(open.isEmpty, "finish() called inside a constructed value")
        guard !marks.isEmpty else { return content }
        var total = content.count
        for mark in marks { total += DERWriter.headerSize(tag: mark.tag, length: mark.length) }
        var output: [UInt8] = []
        output.reserveCapacity(total)
        var cursor = 0
        for mark in marks {
            if mark.position > cursor {
                output.append(contentsOf: content[cursor..<mark.position])
                cursor = mark.position
            }
            DERWriter.appendHeader(tag: mark.tag, length: mark.length, to: &output)
        }
        output.append(contentsOf: content[cursor...])
        return output
    }

    /// The DER bytes, after which the writer's own buffer is overwritten by `wipe` (pass
    /// `SecureMemory.zero` from CryptoOpenSSL), for DER that holds a secret: the buffer the content
    /// was written into would otherwise be released with the secret still in it. Give the writer a
    /// `capacity` that fits everything, so the buffer never grew and left an earlier copy behind.
    public mutating func finish(wipingContentWith wipe: (inout [UInt8]) -> Void) -> [UInt8] {
        let output = finish()
        wipe(&content)
        return output
    }

    // MARK: Headers

    @inlinable
    static func headerSize(tag: ASN1Tag, length: Int) -> Int {
        identifierSize(tag) + lengthSize(length)
    }

    @inlinable
    static func identifierSize(_ tag: ASN1Tag) -> Int {
        guard tag.number >= 31 else { return 1 }
        var n = tag.number
        var groups = 0
        while n > 0 { groups += 1; n >>= 7 }
        return 1 + groups
    }

    @inlinable
    static func lengthSize(_ length: Int) -> Int {
        guard length >= 0x80 else { return 1 }
        var n = length
        var count = 0
        while n > 0 { count += 1; n >>= 8 }
        return 1 + count
    }

    @inlinable
    static func appendHeader(tag: ASN1Tag, length: Int, to out: inout [UInt8]) {
        let leading = tag.tagClass.rawValue << 6 | (tag.isConstructed ? 0x20 : 0)
        if tag.number < 31 {
            out.append(leading | UInt8(tag.number))
        } else {
            out.append(leading | 0x1F)
            var groups = 0
            var n = tag.number
            while n > 0 { groups += 1; n >>= 7 }
            for g in stride(from: groups - 1, through: 0, by: -1) {
                let bits = UInt8((tag.number >> (7 * UInt64(g))) & 0x7F)
                out.append(g == 0 ? bits : bits | 0x80)
            }
        }
        if length < 0x80 {
            out.append(UInt8(length))
        } else {
            let count = lengthSize(length) - 1
            out.append(0x80 | UInt8(count))
            for i in stride(from: count - 1, through: 0, by: -1) {
                out.append(UInt8(truncatingIfNeeded: length >> (8 * i)))
            }
        }
    }
}
