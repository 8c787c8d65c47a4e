import CofferErrors

/// One TLV header as ``DERWalker`` reports it.
public struct ASN1Header: Sendable, Hashable {
    /// Class, number and constructed bit.
    public var tag: ASN1Tag
    /// Byte offset of the identifier.
    public var offset: Int
    /// Identifier plus length octets.
    public var headerLength: Int
    /// Content length.
    public var length: Int
    /// Nesting depth (0 for the top-level value).
    public var depth: Int

    /// Creates a header.
    public init(tag: ASN1Tag, offset: Int, headerLength: Int, length: Int, depth: Int) {
        self.tag = tag
        self.offset = offset
        self.headerLength = headerLength
        self.length = length
        self.depth = depth
    }
}

/// Visits every TLV of a document in order, descending into constructed values, with the same
/// length, depth and trailing-data checks as ``DERReader`` but without creating slices or nodes:
/// the cheapest complete walk, for scanning and indexing.
///
/// It reads definite lengths only; indefinite-length BER needs ``ASN1Tree`` in lenient mode. It does
/// not validate primitive contents (use ``ASN1Tree`` for a full DER validation).
public enum DERWalker {
    /// Walks `bytes`, which must hold exactly one top-level value, calling `visit` for each TLV.
    ///
    /// - Returns: The number of TLVs.
    /// - Throws: ``ASN1Error`` for a malformed header, a length that overruns its enclosing value,
    ///   nesting deeper than `options.maximumDepth`, or trailing data.
    @discardableResult
    public static func walk(_ bytes: [UInt8], options: ASN1ParsingOptions = .der,
                            _ visit: (ASN1Header) throws -> Void = { _ in }) throws -> Int {
        try bytes.withUnsafeBufferPointer { buffer in
            try withUnsafeTemporaryAllocation(of: Int.self, capacity: options.maximumDepth + 1) { ends in
                var count = 0
                var depth = 0
                var position = 0
                var end = buffer.count
                ends[0] = end
                var topLevelSeen = false
                while true {
                    // Close every constructed value that ends here.
                    while depth > 0 && position == end {
                        depth -= 1
                        end = ends[depth]
                    }
                    if position == end {
                        break
                    }
                    if depth == 0 {
                        guard !topLevelSeen else { throw trailingData(at: position, count: buffer.count - position) }
                        topLevelSeen = true
                    }
                    let header = try readHeader(buffer, bytes, at: position, end: end, rules: options.rules)
                    try visit(ASN1Header(tag: header.tag, offset: position, headerLength: header.headerLength,
                                         length: header.length, depth: depth))
                    count += 1
                    let contentStart = position + header.headerLength
                    if header.tag.isConstructed {
                        guard depth + 1 < options.maximumDepth else { throw depthExceeded(at: position, limit: options.maximumDepth) }
                        ends[depth] = end
                        depth += 1
                        end = contentStart + header.length
                        position = contentStart
                    } else {
                        position = contentStart + header.length
                    }
                }
                guard topLevelSeen else {
                    throw ASN1Error(.truncated, "input ends at offset 0 where an identifier was expected", offset: 0)
                }
                return count
            }
        }
    }

    // The errors of the loop, out of line so that the loop stays small.
    @inline(never)
    private static func trailingData(at position: Int, count: Int) -> ASN1Error {
        ASN1Error(.trailingData, "\(count) bytes of trailing data at offset \(position) after the last value", offset: position)
    }

    @inline(never)
    private static func depthExceeded(at position: Int, limit: Int) -> ASN1Error {
        ASN1Error(.depthExceeded, "nesting at offset \(position) exceeds the limit of \(limit) levels", offset: position)
    }

    private struct Header {
        var tag: ASN1Tag
        var headerLength: Int
        var length: Int
    }

    /// The common forms (low tag number, short or minimal long length) inline; everything else,
    /// errors included, through ``ASN1HeaderParser`` so messages stay the same.
    @inline(__always)
    private static func readHeader(_ buffer: UnsafeBufferPointer<UInt8>, _ bytes: [UInt8], at position: Int,
                                   end: Int, rules: ASN1ParsingOptions.Rules) throws -> Header {
        if end - position >= 2 {
            let first = buffer[position]
            let lengthByte = buffer[position + 1]
            if first & 0x1F != 0x1F {
                let tag = ASN1Tag(ASN1TagClass(rawValue: first >> 6)!, UInt64(first & 0x1F), constructed: first & 0x20 != 0)
                if lengthByte < 0x80 {
                    let length = Int(lengthByte)
                    if length <= end - position - 2 { return Header(tag: tag, headerLength: 2, length: length) }
                } else if lengthByte == 0x81, end - position >= 3, buffer[position + 2] >= 0x80 {
                    let length = Int(buffer[position + 2])
                    if length <= end - position - 3 { return Header(tag: tag, headerLength: 3, length: length) }
                } else if lengthByte == 0x82, end - position >= 4, buffer[position + 2] != 0 {
                    let length = Int(buffer[position + 2]) << 8 | Int(buffer[position + 3])
                    if length <= end - position - 4 { return Header(tag: tag, headerLength: 4, length: length) }
                }
            }
        }
        let parsed = try ASN1HeaderParser.parse(bytes[..<end], at: position, origin: 0, rules: rules)
        guard let length = parsed.contentLength else {
            throw ASN1Error(.indefiniteLength, "\(parsed.tag.name) at offset \(position) uses the indefinite length form; DERWalker reads definite lengths only (use ASN1Tree)", offset: position)
        }
        return Header(tag: parsed.tag, headerLength: parsed.headerLength, length: length)
    }
}
