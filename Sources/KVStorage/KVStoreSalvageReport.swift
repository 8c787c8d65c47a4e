/// What ``KVStore/salvage(_:toDirectory:)`` recovered from a damaged store and where it put it.
public struct KVStoreSalvageReport: Sendable, Hashable {
    /// One entry recovered from the damaged log.
    public struct Entry: Sendable, Hashable {
        /// The entry's offset in the damaged data file.
        public var offset: Int
        /// The entry's size in bytes.
        public var size: Int
        /// The key.
        public var key: String
        /// Whether the entry is a tombstone.
        public var isTombstone: Bool
        /// Whether the entry lies after damage: it parses, but was found by resynchronising past
        /// bytes that do not, so it is less certain than the intact prefix.
        public var afterDamage: Bool

        /// Creates an entry record.
        public init(offset: Int, size: Int, key: String, isTombstone: Bool, afterDamage: Bool) {
            self.offset = offset
            self.size = size
            self.key = key
            self.isTombstone = isTombstone
            self.afterDamage = afterDamage
        }
    }

    /// Every entry recovered, in file order: the intact prefix, then the entries found after damage.
    public var entries: [Entry]
    /// Byte ranges of the data file (within the scanned region) that did not parse and were skipped.
    public var damagedRanges: [Range<Int>]
    /// The scanned region of the data file, `[4, regionEnd)`.
    public var regionEnd: Int
    /// Which size bounded the region: `meta`, `header` or `file` (no plausible recorded size).
    public var regionSource: String
    /// Whether the region passed the CRC the meta file records (then nothing inside it is damaged).
    public var crcMatches: Bool
    /// The number of live keys written to the salvaged store (expired ones are left out).
    public var liveKeys: Int
    /// The salvaged store's data file.
    public var dataPath: String

    /// The end of the intact prefix: the offset of the first byte that does not parse, or
    /// ``regionEnd`` when everything parsed.
    public var intactPrefixEnd: Int { damagedRanges.first?.lowerBound ?? regionEnd }
}
