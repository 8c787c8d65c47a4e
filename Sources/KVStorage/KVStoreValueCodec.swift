/// The value payloads exactly as MMKV stores them inside an entry's value length (MMKV-FORMAT §2.4).
///
/// ```
/// bool            varint 0 / 1 (any non-zero varint reads as true)
/// int32           v >= 0: varint32; v < 0: 10-byte varint64 of the sign-extended value
/// uint32, uint64  varint
/// int64           varint64 of the two's-complement bit pattern
/// float, double   4 / 8 bytes IEEE-754 little-endian
/// string, bytes   varint(length) + bytes           (a second length inside the entry)
/// [String]        varint(total) + (varint(length) + bytes)*
/// ```
/// The decoders are strict: the payload must be exactly one value of the requested shape. The CLI's
/// `dump` uses them to show every plausible decoding of raw bytes.
public enum KVStoreValueCodec {
    // MARK: Encoding

    /// The payload of a bool.
    public static func encode(_ value: Bool) -> [UInt8] { [value ? 1 : 0] }
    /// The payload of an int32 (negative values take 10 bytes).
    public static func encode(_ value: Int32) -> [UInt8] { varintBytes(UInt64(bitPattern: Int64(value))) }
    /// The payload of a uint32.
    public static func encode(_ value: UInt32) -> [UInt8] { varintBytes(UInt64(value)) }
    /// The payload of an int64.
    public static func encode(_ value: Int64) -> [UInt8] { varintBytes(UInt64(bitPattern: value)) }
    /// The payload of a uint64.
    public static func encode(_ value: UInt64) -> [UInt8] { varintBytes(value) }
    /// The payload of a float.
    public static func encode(_ value: Float) -> [UInt8] { withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) } }
    /// The payload of a double.
    public static func encode(_ value: Double) -> [UInt8] { withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) } }
    /// The payload of a string: its UTF-8 length and bytes.
    public static func encode(_ value: String) -> [UInt8] { encode(bytes: Array(value.utf8)) }
    /// The payload of a byte string: its length and bytes.
    public static func encode(bytes value: [UInt8]) -> [UInt8] { varintBytes(UInt64(value.count)) + value }
    /// The payload of a vector of strings.
    public static func encode(_ value: [String]) -> [UInt8] {
        var body: [UInt8] = []
        for element in value { body += encode(element) }
        return varintBytes(UInt64(body.count)) + body
    }

    static func varintBytes(_ value: UInt64) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Varint.size(value))
        bytes.withUnsafeMutableBytes { _ = Varint.write(value, to: $0.baseAddress!) }
        return bytes
    }

    // MARK: Decoding

    /// The payload as one varint, or `nil` when it is not exactly one varint.
    @inline(__always)
    public static func decodeVarint(_ payload: UnsafeRawBufferPointer) -> UInt64? {
        Varint.decodeExactly(payload)
    }
    /// The payload as a bool (any non-zero varint is true).
    public static func decodeBool(_ payload: UnsafeRawBufferPointer) -> Bool? { decodeVarint(payload).map { $0 != 0 } }
    /// The payload as an int32 (the varint's low 32 bits, as MMKV reads it).
    public static func decodeInt32(_ payload: UnsafeRawBufferPointer) -> Int32? {
        decodeVarint(payload).map { Int32(truncatingIfNeeded: $0) }
    }
    /// The payload as a uint32 (the varint's low 32 bits).
    public static func decodeUInt32(_ payload: UnsafeRawBufferPointer) -> UInt32? {
        decodeVarint(payload).map { UInt32(truncatingIfNeeded: $0) }
    }
    /// The payload as an int64.
    public static func decodeInt64(_ payload: UnsafeRawBufferPointer) -> Int64? {
        decodeVarint(payload).map { Int64(bitPattern: $0) }
    }
    /// The payload as a uint64.
    public static func decodeUInt64(_ payload: UnsafeRawBufferPointer) -> UInt64? { decodeVarint(payload) }
    /// The payload as a float (exactly 4 bytes).
    public static func decodeFloat(_ payload: UnsafeRawBufferPointer) -> Float? {
        guard payload.count == 4 else { return nil }
        return Float(bitPattern: UInt32(littleEndian: payload.loadUnaligned(as: UInt32.self)))
    }
    /// The payload as a double (exactly 8 bytes).
    public static func decodeDouble(_ payload: UnsafeRawBufferPointer) -> Double? {
        guard payload.count == 8 else { return nil }
        return Double(bitPattern: UInt64(littleEndian: payload.loadUnaligned(as: UInt64.self)))
    }
    /// The payload as a length-prefixed byte string: the bytes after the inner length.
    @inline(__always)
    public static func decodeBytesSlice(_ payload: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard let base = payload.baseAddress, !payload.isEmpty else { return nil }
        // A length below 128, the common case, is its own one-byte varint.
        let first = base.load(as: UInt8.self)
        if first < 0x80 {
            guard Int(first) == payload.count &- 1 else { return nil }
            return UnsafeRawBufferPointer(start: base + 1, count: Int(first))
        }
        var offset = 0
        guard let length = try? Varint.read(base, offset: &offset, end: payload.count),
            length == UInt64(payload.count - offset)
        else { return nil }
        return UnsafeRawBufferPointer(rebasing: payload[offset...])
    }
    /// The payload as bytes.
    public static func decodeBytes(_ payload: UnsafeRawBufferPointer) -> [UInt8]? {
        decodeBytesSlice(payload).map { Array($0) }
    }
    /// The payload as a string's UTF-8 bytes: the bytes after the inner length, borrowed, when they
    /// are valid UTF-8 (checked without allocating).
    @inline(__always)
    public static func decodeStringSlice(_ payload: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard let slice = decodeBytesSlice(payload), isValidUTF8(slice) else { return nil }
        return slice
    }
    /// The payload as a UTF-8 string.
    @inline(__always)
    public static func decodeString(_ payload: UnsafeRawBufferPointer) -> String? {
        guard let slice = decodeBytesSlice(payload) else { return nil }
        return validatedString(slice)
    }

    /// The UTF-8 text in `bytes`, or `nil` when it is not valid UTF-8, checked once: ASCII eight bytes
    /// at a time, anything else by `UTF8Span(validating:)`, then copied with `String(copying:)`,
    /// which does not check again (`String(decoding:as:)` would). `String(validating:as:)` is
    /// generic and unspecialised: it looks up type metadata on every call and costs three times as
    /// much.
    @inline(__always)
    static func validatedString(_ bytes: UnsafeRawBufferPointer) -> String? {
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            let units = bytes.assumingMemoryBound(to: UInt8.self).span
            // ASCII (the common case) checked here eight bytes at a time, so the copy is made
            // without a second check; anything else through the standard library's validator.
            if isASCII(bytes) { return String(copying: unsafe UTF8Span(unchecked: units, isKnownASCII: true)) }
            guard let text = try? UTF8Span(validating: units) else { return nil }
            return String(copying: text)
        }
        guard isValidUTF8(bytes) else { return nil }
        return String(decoding: bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
    }

    /// Whether `bytes` are valid UTF-8: ASCII checked eight bytes at a time, anything else by the
    /// standard library's validator, without allocating.
    @inline(__always)
    static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if isASCII(bytes) { return true }
        return (try? UTF8Span(validating: bytes.assumingMemoryBound(to: UInt8.self).span)) != nil
    }

    /// Whether every byte is below 0x80: sixteen, then eight bytes at a time, the last 1 to 7 in one
    /// or two overlapping loads.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var high: UInt64 = 0
        var index = 0
        // Sixteen bytes a turn: half the loop's overhead on short values.
        while index &+ 16 <= count {
            high |= base.loadUnaligned(fromByteOffset: index, as: UInt64.self) | base.loadUnaligned(fromByteOffset: index &+ 8, as: UInt64.self)
            index &+= 16
        }
        if index &+ 8 <= count {
            high |= base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index &+= 8
        }
        if index < count {
            high |= count >= 8 ? base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) : StoreIndex.loadShort(base, count: count)
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
    /// The payload as a vector of strings.
    public static func decodeStrings(_ payload: UnsafeRawBufferPointer) -> [String]? {
        guard let body = decodeBytesSlice(payload), let base = body.baseAddress ?? (body.isEmpty ? UnsafeRawPointer(bitPattern: 1) : nil) else {
            return nil
        }
        var result: [String] = []
        var offset = 0
        while offset < body.count {
            guard let length = try? Varint.read(base, offset: &offset, end: body.count),
                length <= UInt64(body.count - offset)
            else { return nil }
            let element = UnsafeRawBufferPointer(start: base + offset, count: Int(length))
            guard let text = validatedString(element) else { return nil }
            result.append(text)
            offset += Int(length)
        }
        return result
    }

    /// Array-based conveniences for callers holding `[UInt8]`.
    public static func decodeVarint(_ payload: [UInt8]) -> UInt64? { payload.withUnsafeBytes { decodeVarint($0) } }
    /// The payload as a string, from an array.
    public static func decodeString(_ payload: [UInt8]) -> String? { payload.withUnsafeBytes { decodeString($0) } }
    /// The payload as bytes, from an array.
    public static func decodeBytes(_ payload: [UInt8]) -> [UInt8]? { payload.withUnsafeBytes { decodeBytes($0) } }
    /// The payload as a vector of strings, from an array.
    public static func decodeStrings(_ payload: [UInt8]) -> [String]? { payload.withUnsafeBytes { decodeStrings($0) } }
    /// The payload as a float, from an array.
    public static func decodeFloat(_ payload: [UInt8]) -> Float? { payload.withUnsafeBytes { decodeFloat($0) } }
    /// The payload as a double, from an array.
    public static func decodeDouble(_ payload: [UInt8]) -> Double? { payload.withUnsafeBytes { decodeDouble($0) } }
}
