/// Builds SSH wire-format data (RFC 4251 §5): `uint32`, `string` and `mpint`, the inverse of
/// ``SSHWireReader``.
struct SSHWireWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8]

    /// Creates an empty writer with room for `capacity` bytes.
    init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends a big-endian `uint32`.
    mutating func writeUInt32(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends a big-endian `uint64`.
    mutating func writeUInt64(_ value: UInt64) {
        writeUInt32(UInt32(truncatingIfNeeded: value >> 32))
        writeUInt32(UInt32(truncatingIfNeeded: value))
    }

    /// Appends raw bytes without a length.
    mutating func writeBytes<C: Collection<UInt8>>(_ data: C) {
        bytes.append(contentsOf: data)
    }

    /// Appends a `string`: the length, then the bytes.
    mutating func writeString<C: Collection<UInt8>>(_ data: C) {
        writeUInt32(UInt32(data.count))
        bytes.append(contentsOf: data)
    }

    /// Appends a `string` holding UTF-8 text.
    mutating func writeString(_ text: String) {
        writeString(Array(text.utf8))
    }

    /// Appends a non-negative `mpint` from a big-endian magnitude: leading zero bytes are dropped,
    /// zero is the empty string, and a zero byte is prefixed when the top bit is set.
    mutating func writeMPInt<C: Collection<UInt8>>(magnitude: C) {
        let trimmed = magnitude.drop(while: { $0 == 0 })
        let needsSignByte = (trimmed.first ?? 0) & 0x80 != 0
        writeUInt32(UInt32(trimmed.count + (needsSignByte ? 1 : 0)))
        if needsSignByte { bytes.append(0) }
        bytes.append(contentsOf: trimmed)
    }
}
