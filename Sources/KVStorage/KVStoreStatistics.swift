/// What `kvstore stats` shows about a store.
public struct KVStoreStatistics: Sendable, Hashable {
    /// The data file's size in bytes.
    public var fileSize: Int
    /// The used part of the data file: the 4-byte header plus the data region.
    public var usedSize: Int
    /// The data region's length (MMKV's `actualSize`).
    public var actualSize: Int
    /// Live keys (expired keys excluded).
    public var liveEntries: Int
    /// Keys whose expire-at time has passed but that are still in the file.
    public var expiredEntries: Int
    /// Superseded entries and tombstones in the log, reclaimed by compaction.
    public var deadEntries: Int
    /// Bytes of superseded entries and tombstones.
    public var deadBytes: Int
    /// The meta file's full write-back counter.
    public var sequence: UInt32
    /// The CRC recorded in the meta file.
    public var crc: UInt32
    /// Whether the CRC recomputed over the data region matches the meta file now.
    public var crcValid: Bool
    /// The meta struct version (4 for everything written by MMKV 2.x or Coffer).
    public var metaVersion: UInt32
    /// The 4-byte header at the start of the data file (Coffer keeps it equal to ``actualSize``).
    public var header: UInt32
    /// The cipher, or `nil` for a plain store.
    public var cipher: KVStoreConfiguration.Cipher?
    /// Whether values carry expire-at trailers.
    public var expirationEnabled: Bool
}
