/// Protobuf base-128 varints, as MMKV writes them (no zigzag).
///
/// ```
/// varint := byte* ; 7 payload bits per byte, least-significant group first;
///           bit 7 set = more bytes follow; at most 10 bytes for 64 bits
/// ```
/// Reading an 11th byte that still has its continuation bit set is an error, as is running off the
/// end of the buffer. Bits beyond 64 in the 10th byte are dropped, as protobuf does.
enum Varint {
    /// Why a varint did not decode.
    enum Failure: Error {
        case truncated
        case tooLong
    }

    /// The encoded length of `value`, 1...10.
    @inline(__always)
    static func size(_ value: UInt64) -> Int {
        // One byte per started group of 7 bits; at least one byte for 0.
        let bits = 64 - (value | 1).leadingZeroBitCount
        return (bits + 6) / 7
    }

    /// Writes `value` at `pointer` and returns the number of bytes written.
    @inline(__always)
    @discardableResult
    static func write(_ value: UInt64, to pointer: UnsafeMutableRawPointer) -> Int {
        var value = value
        var count = 0
        while value >= 0x80 {
            pointer.storeBytes(of: UInt8(truncatingIfNeeded: value) | 0x80, toByteOffset: count, as: UInt8.self)
            value >>= 7
            count += 1
        }
        pointer.storeBytes(of: UInt8(value), toByteOffset: count, as: UInt8.self)
        return count + 1
    }

    /// Reads a varint from `base[offset..<end]`, advancing `offset` only on success.
    @inline(__always)
    static func read(_ base: UnsafeRawPointer, offset: inout Int, end: Int) throws(Failure) -> UInt64 {
        var position = offset
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw .truncated }
            let byte = base.load(fromByteOffset: position, as: UInt8.self)
            position += 1
            if shift < 64 { result |= UInt64(byte & 0x7F) << shift }
            if byte & 0x80 == 0 { break }
            shift += 7
            if shift >= 70 { throw .tooLong }
        }
        offset = position
        return result
    }

    /// Decodes a whole buffer as exactly one varint, or `nil`.
    @inline(__always)
    static func decodeExactly(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        guard let value = try? read(base, offset: &offset, end: bytes.count), offset == bytes.count else { return nil }
        return value
    }
}
