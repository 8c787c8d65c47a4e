/// The allocation-free fast path of ASN1Kit's header reader: a cursor over DER in a raw buffer
/// that reads the common form (a one-octet identifier and a minimal definite length of at most two
/// octets) and answers `nil` for anything else, valid or not.
///
/// Hot decoders try it first and hand every `nil` to ``DERReader``, which decodes the rarer forms
/// or reports the precise error with its offset; so the scanner never needs to explain a failure.
/// It decodes headers with the same code as ``DERReader`` (``ASN1HeaderParser``), so the two agree
/// on every common-form header. Positions are offsets into ``bytes``.
///
/// ```swift
/// // SEQUENCE { INTEGER, INTEGER } with nothing after it:
/// let pair: (Range<Int>, Range<Int>)? = der.withUnsafeBytes { buffer in
///     var scanner = DERScanner(buffer)
///     guard let sequence = scanner.enter(0x30), sequence.upperBound == buffer.count,
///           let first = scanner.readUnsignedInteger(), let second = scanner.readUnsignedInteger(),
///           scanner.isAtEnd else { return nil }
///     return (first, second)
/// }
/// ```
public struct DERScanner {
    /// The bytes scanned.
    public let bytes: UnsafeRawBufferPointer
    /// The offset of the next header.
    public var position: Int

    /// A scanner at `position` of `bytes`.
    @inlinable
    public init(_ bytes: UnsafeRawBufferPointer, position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// Whether every byte has been read.
    @inlinable
    public var isAtEnd: Bool { position == bytes.count }

    /// Steps into a constructed value whose identifier octet is `identifier` (`0x30` for a
    /// SEQUENCE): returns its content range and moves to its first inner header.
    @inlinable @inline(__always)
    public mutating func enter(_ identifier: UInt8) -> Range<Int>? {
        guard let content = content(identifier) else { return nil }
        position = content.lowerBound
        return content
    }

    /// Reads a whole value whose identifier octet is `identifier`: returns its content range and
    /// moves past it.
    @inlinable @inline(__always)
    public mutating func read(_ identifier: UInt8) -> Range<Int>? {
        guard let content = content(identifier) else { return nil }
        position = content.upperBound
        return content
    }

    /// Reads a DER INTEGER that is non-negative and minimally encoded: returns the range of its
    /// magnitude (without the sign octet; zero is one `0x00` octet) and moves past it.
    @inlinable @inline(__always)
    public mutating func readUnsignedInteger() -> Range<Int>? {
        guard let content = content(0x02), !content.isEmpty else { return nil }
        let first = bytes[content.lowerBound]
        guard first & 0x80 == 0 else { return nil }
        var start = content.lowerBound
        if first == 0 && content.count > 1 {
            // A leading 0x00 is minimal only when the next octet has its high bit set.
            guard bytes[start + 1] & 0x80 != 0 else { return nil }
            start += 1
        }
        position = content.upperBound
        return start..<content.upperBound
    }

    /// Moves past `expected` when the next bytes are exactly those (a fixed encoding such as an
    /// AlgorithmIdentifier); `false`, without moving, otherwise.
    @inlinable @inline(__always)
    public mutating func skip(_ expected: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count - position >= expected.count else { return false }
        // Eight bytes at a time, then the rest: a fixed prefix is compared in a few loads.
        var index = 0
        while expected.count - index >= 8 {
            guard bytes.loadUnaligned(fromByteOffset: position + index, as: UInt64.self)
                    == expected.loadUnaligned(fromByteOffset: index, as: UInt64.self) else { return false }
            index += 8
        }
        while index < expected.count {
            guard bytes[position + index] == expected[index] else { return false }
            index += 1
        }
        position += expected.count
        return true
    }

    /// The content range of the value at ``position`` when its identifier octet is `identifier`
    /// and its header has the common form; does not move.
    @inlinable @inline(__always)
    func content(_ identifier: UInt8) -> Range<Int>? {
        guard position < bytes.count, bytes[position] == identifier,
              let (header, length) = ASN1HeaderParser.commonFormLengths(bytes, at: position) else { return nil }
        let start = position + header
        return start..<(start + length)
    }
}
