internal import CZlib

/// The zlib CRC-32 (reflected polynomial 0xEDB88320, initial value 0), continued incrementally:
/// `update(update(0, a), b) == update(0, a + b)`. Wraps zlib's `crc32`.
enum CRC32 {
    /// Continues `crc` over `count` bytes at `pointer`.
    @inline(__always)
    static func update(_ crc: UInt32, _ pointer: UnsafeRawPointer, count: Int) -> UInt32 {
        var crc = UInt(crc)
        var pointer = pointer
        var remaining = count
        while remaining > 0 {
            let chunk = min(remaining, Int(UInt32.max >> 1))
            crc = crc32(crc, pointer.assumingMemoryBound(to: UInt8.self), uInt(chunk))
            pointer += chunk
            remaining -= chunk
        }
        return UInt32(truncatingIfNeeded: crc)
    }

    /// The CRC of a whole buffer.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return 0 }
        return update(0, base, count: bytes.count)
    }
}
