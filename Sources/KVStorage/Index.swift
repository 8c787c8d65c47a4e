/// Where a live value lives: the offset of its payload (from the start of the data file, so the same
/// number addresses the mapping of a plain store and the plaintext buffer of an encrypted one) and
/// its length including the expire trailer when expiration is on. The index never copies values.
struct IndexEntry: Sendable {
    var offset: UInt32
    var length: UInt32
}

/// The in-memory index of a store: key → latest value location, plus the bookkeeping compaction
/// needs (how many entries the log holds and how many of its bytes are superseded).
struct StoreIndex {
    var entries: [String: IndexEntry] = [:]
    /// Entries (with a non-empty key) in the log, tombstones and superseded ones included.
    var logEntries = 0
    /// Bytes of superseded entries and tombstones: what a compaction would reclaim.
    var deadBytes = 0

    /// The encoded size of an entry with these key and value lengths.
    @inline(__always)
    static func entrySize(keyLength: Int, valueLength: Int) -> Int {
        Varint.size(UInt64(keyLength)) + keyLength + Varint.size(UInt64(valueLength)) + valueLength
    }

    /// Records an entry appended to the log: `length == 0` is a tombstone.
    @inline(__always)
    mutating func record(key: String, keyLength: Int, entry: IndexEntry) {
        logEntries += 1
        if entry.length == 0 {
            deadBytes += Self.entrySize(keyLength: keyLength, valueLength: 0)
            if let old = entries.removeValue(forKey: key) {
                deadBytes += Self.entrySize(keyLength: keyLength, valueLength: Int(old.length))
            }
        } else if let old = entries.updateValue(entry, forKey: key) {
            deadBytes += Self.entrySize(keyLength: keyLength, valueLength: Int(old.length))
        }
    }
}
