/// The meta (`.crc`) file: MMKV's `struct MMKVMetaInfo`, 112 bytes at offset 0, little-endian.
///
/// ```
/// offset size field
///   0     4   crcDigest                CRC32 of data bytes [4, 4 + actualSize)
///   4     4   version                  0 default, 1 sequence, 2 random IV, 3 actual size, 4 flags
///   8     4   sequence                 full write-back counter
///  12    16   vector                   AES IV (version >= 2)
///  28     4   actualSize               authoritative data length (version >= 3)
///  32     4   lastConfirmed.actualSize actualSize at the last sequence increase
///  36     4   lastConfirmed.crcDigest  CRC at that moment
///  40    64   reserved                 zero (see "pending commit" below)
/// 104     8   flags                    bit 0 = keys expire (version >= 4)
/// ```
///
/// Pending commit (a Coffer extension inside MMKV's reserved bytes, zero except while a full
/// write-back is being committed, ignored by MMKV): offset 40 magic `"CPND"`, 44 the flags of the
/// new image (u32), 48..64 the IV of the new image. See `StoreCore+WriteBack.swift`.
struct MetaInfo: Equatable {
    static let size = 112
    static let currentVersion: UInt32 = 4
    static let expireFlag: UInt64 = 1
    static let pendingMagic: UInt32 = 0x444E_5043  // "CPND" little-endian

    enum Offset {
        static let crc = 0
        static let version = 4
        static let sequence = 8
        static let iv = 12
        static let actualSize = 28
        static let lastConfirmedSize = 32
        static let lastConfirmedCRC = 36
        static let pendingMagic = 40
        static let pendingFlags = 44
        static let pendingIV = 48
        static let flags = 104
    }

    var crc: UInt32 = 0
    var version: UInt32 = 0
    var sequence: UInt32 = 0
    var iv: [UInt8] = [UInt8](repeating: 0, count: 16)
    var actualSize: UInt32 = 0
    var lastConfirmedSize: UInt32 = 0
    var lastConfirmedCRC: UInt32 = 0
    var pendingMagic: UInt32 = 0
    var pendingFlags: UInt32 = 0
    var pendingIV: [UInt8] = [UInt8](repeating: 0, count: 16)
    var flags: UInt64 = 0

    init() {}

    /// Reads the struct from up to 112 bytes; missing bytes read as zero.
    init(bytes: UnsafeRawBufferPointer) {
        var buffer = [UInt8](repeating: 0, count: Self.size)
        let count = min(bytes.count, Self.size)
        if count > 0 { buffer.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[0..<count])) } }
        self.init(buffer: buffer)
    }

    private init(buffer: [UInt8]) {
        func u32(_ offset: Int) -> UInt32 {
            UInt32(buffer[offset]) | UInt32(buffer[offset + 1]) << 8 | UInt32(buffer[offset + 2]) << 16
                | UInt32(buffer[offset + 3]) << 24
        }
        crc = u32(Offset.crc)
        version = u32(Offset.version)
        sequence = u32(Offset.sequence)
        iv = Array(buffer[Offset.iv..<Offset.iv + 16])
        actualSize = u32(Offset.actualSize)
        lastConfirmedSize = u32(Offset.lastConfirmedSize)
        lastConfirmedCRC = u32(Offset.lastConfirmedCRC)
        pendingMagic = u32(Offset.pendingMagic)
        pendingFlags = u32(Offset.pendingFlags)
        pendingIV = Array(buffer[Offset.pendingIV..<Offset.pendingIV + 16])
        flags = UInt64(u32(Offset.flags)) | UInt64(u32(Offset.flags + 4)) << 32
    }

    /// The 112 bytes of this struct.
    var bytes: [UInt8] {
        var buffer = [UInt8](repeating: 0, count: Self.size)
        buffer.withUnsafeMutableBytes { store(to: $0.baseAddress!) }
        return buffer
    }

    /// Whether a pending-commit record is present.
    var hasPendingCommit: Bool { pendingMagic == Self.pendingMagic }

    /// Whether every byte of the struct is zero (a missing or never-written meta file).
    var isZero: Bool { self == MetaInfo() }

    /// The expiration flag as MMKV honours it (only from version 4 on, and not for versions >= 7).
    var expirationEnabled: Bool { version >= 4 && version < 7 && flags & Self.expireFlag != 0 }

    /// Writes all 112 bytes in an order chosen for crash safety: everything except the CRC and the
    /// actual size first, then the CRC, then the actual size, and the pending record last (cleared).
    func store(to pointer: UnsafeMutableRawPointer) {
        Self.store(version, at: Offset.version, to: pointer)
        Self.store(sequence, at: Offset.sequence, to: pointer)
        iv.withUnsafeBytes { (pointer + Offset.iv).copyMemory(from: $0.baseAddress!, byteCount: 16) }
        Self.store(lastConfirmedSize, at: Offset.lastConfirmedSize, to: pointer)
        Self.store(lastConfirmedCRC, at: Offset.lastConfirmedCRC, to: pointer)
        (pointer + Offset.pendingMagic + 16 + 8).initializeMemory(as: UInt8.self, repeating: 0, count: 40)
        Self.store(UInt32(truncatingIfNeeded: flags), at: Offset.flags, to: pointer)
        Self.store(UInt32(truncatingIfNeeded: flags >> 32), at: Offset.flags + 4, to: pointer)
        Self.store(crc, at: Offset.crc, to: pointer)
        Self.store(actualSize, at: Offset.actualSize, to: pointer)
        Self.store(pendingFlags, at: Offset.pendingFlags, to: pointer)
        pendingIV.withUnsafeBytes { (pointer + Offset.pendingIV).copyMemory(from: $0.baseAddress!, byteCount: 16) }
        Self.store(pendingMagic, at: Offset.pendingMagic, to: pointer)
    }

    @inline(__always)
    static func store(_ value: UInt32, at offset: Int, to pointer: UnsafeMutableRawPointer) {
        pointer.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self)
    }

    @inline(__always)
    static func load(at offset: Int, from pointer: UnsafeRawPointer) -> UInt32 {
        UInt32(littleEndian: pointer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
