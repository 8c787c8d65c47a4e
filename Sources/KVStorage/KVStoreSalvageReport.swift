/// What ``KVStore/salvage(_:toDirectory:)`` recovered from a damaged store and where it put it.
///
/// Only a matching CRC proves entries intact. Without one, every entry was checked against the
/// shapes MMKV writes; those that could not be confirmed are kept but named in ``uncertainKeys``,
/// and keys whose damaged entries could still be read are named in ``lostKeys``. Keys whose
/// entries lie wholly inside a damaged range cannot be named: nothing of them is left to read.
/// ``isComplete`` is `true` only when nothing was lost or uncertain.
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
        /// Whether the entry lies after damage: it was found by resynchronising past bytes that do
        /// not parse.
        public var afterDamage: Bool
        /// Why the entry could not be confirmed (it is kept, but its key or value may be damaged),
        /// or `nil` when it passed every check. Never set when the CRC matches and every entry
        /// parses.
        public var uncertainty: String?

        /// Creates an entry record.
        public init(offset: Int, size: Int, key: String, isTombstone: Bool, afterDamage: Bool, uncertainty: String? = nil) {
            self.offset = offset
            self.size = size
            self.key = key
            self.isTombstone = isTombstone
            self.afterDamage = afterDamage
            self.uncertainty = uncertainty
        }
    }

    /// Every entry recovered, in file order: the prefix before the first damage, then the entries
    /// found after damage.
    public var entries: [Entry]
    /// Byte ranges of the data file that did not parse as entries, or held entries that were
    /// misparses (lengths read from damaged bytes, swallowing their successors), and were skipped.
    /// A range reaches past the file's end (to ``recordedEnd``) when the file is shorter than its
    /// recorded size.
    public var damagedRanges: [Range<Int>]
    /// The scanned region of the data file, `[4, regionEnd)`.
    public var regionEnd: Int
    /// Which size bounded the region: `meta`, `header` or `file` (no plausible recorded size).
    public var regionSource: String
    /// Whether the region passed the CRC the meta file records. With no damaged range, nothing
    /// inside it is damaged; a region that passes but does not parse (a wrong crypt key decrypts
    /// to noise) is checked entry by entry like a damaged one.
    public var crcMatches: Bool
    /// Whether there was a meta file (a `.crc`) to check the region against.
    public var hasMeta: Bool
    /// Where the region should end by the size the meta (else the header) records: past
    /// ``regionEnd`` when the data file was cut short.
    public var recordedEnd: Int
    /// Keys whose damaged entries could still be read but not recovered, in file order (a key
    /// recovered from a later entry is not listed). Their salvaged value, if any, is an older one.
    public var lostKeys: [String]
    /// Keys, sorted, whose last recovered entry could not be confirmed (see
    /// ``Entry/uncertainty``): their value in the salvaged store (or their absence, for a
    /// tombstone) may be wrong.
    public var uncertainKeys: [String]
    /// The number of live keys written to the salvaged store (expired ones are left out).
    public var liveKeys: Int
    /// The salvaged store's data file.
    public var dataPath: String

    /// The end of the prefix before the first damage: the offset of the first damaged byte, or
    /// ``regionEnd`` when nothing was found damaged. Not proof that the prefix is intact: only
    /// ``crcMatches`` is.
    public var intactPrefixEnd: Int { damagedRanges.first?.lowerBound ?? regionEnd }

    /// Whether the salvaged store holds everything the damaged one did: the CRC matches, nothing
    /// is damaged, and no key is lost or uncertain.
    public var isComplete: Bool {
        crcMatches && damagedRanges.isEmpty && lostKeys.isEmpty && uncertainKeys.isEmpty
    }
}
