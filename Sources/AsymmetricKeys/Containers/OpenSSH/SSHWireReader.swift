import CofferErrors

/// A cursor over SSH wire-format data (RFC 4251 §5) that never reads past its end.
///
/// ```
/// uint32   4 bytes, big-endian
/// string   uint32 length, then that many bytes
/// mpint    a string holding a two's complement big-endian integer; zero is the empty string;
///          a positive number whose top bit is set gets one leading zero byte; no other leading
///          0x00 or 0xFF bytes are allowed
/// ```
///
/// Every length is checked against the bytes that remain before anything is sliced, so an overrun
/// is an ``KeyError`` naming the offset of the length field. Offsets count from the start of
/// the input the reader was created over, plus `baseOffset`. `read…` methods move the cursor only
/// when they succeed.
package struct SSHWireReader {
    /// The largest mpint accepted, in bytes: 16384 bits, OpenSSH's own limit, plus a sign byte.
    static let maximumMPIntBytes = 16384 / 8 + 1

    private let bytes: ArraySlice<UInt8>
    private var position: Int
    private let baseOffset: Int
    /// What is being read, for error messages ("OpenSSH public key blob").
    let context: String

    /// Creates a reader over `bytes`; errors report `baseOffset` + the position in `bytes`.
    init(_ bytes: ArraySlice<UInt8>, baseOffset: Int = 0, context: String) {
        self.bytes = bytes
        self.position = bytes.startIndex
        self.baseOffset = baseOffset
        self.context = context
    }

    /// The offset of the next byte, as errors report it.
    var offset: Int { baseOffset + position - bytes.startIndex }

    /// The number of bytes not yet read.
    var remainingCount: Int { bytes.endIndex - position }

    /// Whether every byte has been read.
    var isAtEnd: Bool { position == bytes.endIndex }

    /// The bytes not yet read, without moving the cursor.
    var remaining: ArraySlice<UInt8> { bytes[position...] }

    /// Reads a big-endian `uint32`.
    mutating func readUInt32() throws -> UInt32 { try readBigEndian("a 4-byte uint32") }

    /// Reads a big-endian `uint64`.
    mutating func readUInt64() throws -> UInt64 { try readBigEndian("an 8-byte uint64") }

    /// Reads a big-endian unsigned integer of `Value`'s width; `what` names it in the error.
    private mutating func readBigEndian<Value: FixedWidthInteger & UnsignedInteger>(_ what: String) throws -> Value {
        let size = Value.bitWidth / 8
        guard remainingCount >= size else {
            throw malformed("needs \(what) at offset \(offset) but only \(remainingCount) bytes remain")
        }
        var value: Value = 0
        for index in position..<(position + size) { value = value << 8 | Value(bytes[index]) }
        position += size
        return value
    }

    /// Reads `count` raw bytes.
    mutating func readBytes(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, remainingCount >= count else {
            throw malformed("needs \(count) bytes at offset \(offset) but only \(remainingCount) remain")
        }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    /// Reads a `string`: its length, bounded by what remains, then its bytes.
    mutating func readString() throws -> ArraySlice<UInt8> {
        let start = position
        let length = Int(try readUInt32())
        guard length <= remainingCount else {
            let available = remainingCount
            position = start
            throw malformed("string length \(length) at offset \(offset) overruns the end (\(available) bytes follow it)")
        }
        defer { position += length }
        return bytes[position..<(position + length)]
    }

    /// Reads an `mpint` that must be zero or positive, returning its magnitude without the sign
    /// byte (empty for zero). Negative and non-minimal encodings are errors.
    mutating func readPositiveMPInt(_ name: String) throws -> ArraySlice<UInt8> {
        let start = position
        let startOffset = offset
        let value = try readString()
        guard value.count <= Self.maximumMPIntBytes else {
            position = start
            throw malformed("mpint \(name) at offset \(startOffset) has \(value.count) bytes, more than the \(Self.maximumMPIntBytes) allowed")
        }
        guard let first = value.first else { return value }
        guard first & 0x80 == 0 else {
            position = start
            throw malformed("mpint \(name) at offset \(startOffset) is negative")
        }
        if first == 0 {
            guard value.count > 1, value[value.startIndex + 1] & 0x80 != 0 else {
                position = start
                throw malformed("mpint \(name) at offset \(startOffset) has a superfluous leading zero byte")
            }
            return value.dropFirst()
        }
        return value
    }

    /// Throws unless every byte has been read.
    /// Builds a key value from fields just read; a `.malformed` error without an offset (a bad
    /// point, a wrong length) gets `offset` and the reader's context.
    func keyValue<Value>(at offset: Int, _ make: () throws -> Value) throws -> Value {
        do {
            return try make()
        } catch var error as KeyError where error.code == .malformed && error.offset == nil {
            error.reason = "\(context) at offset \(offset): \(error.reason)"
            error.offset = offset
            throw error
        }
    }

    func finish() throws {
        guard isAtEnd else {
            throw malformed("has \(remainingCount) unexpected trailing bytes at offset \(offset)")
        }
    }

    /// An error saying the data being read is malformed, with the current offset.
    func malformed(_ detail: String) -> KeyError {
        KeyError(.malformed, "\(context) \(detail)", offset: offset)
    }

    /// A short, printable rendering of a name read from the input (for key type names in errors).
    package static func printable<C: Collection<UInt8>>(_ bytes: C) -> String {
        let limited = bytes.prefix(64)
        var text = ""
        for byte in limited {
            text += (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "?"
        }
        return bytes.count > 64 ? text + "…" : text
    }
}
