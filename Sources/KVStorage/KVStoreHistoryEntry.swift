/// One entry of a store's log, as ``KVStore/history()`` lists it: every entry in file order,
/// superseded values and tombstones included (MMKV appends; old bytes stay until compaction).
public struct KVStoreHistoryEntry: Sendable, Hashable {
    /// What became of an entry.
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// The key's current value.
        case live
        /// A later entry for the same key holds a newer value.
        case superseded
        /// A tombstone, or a value whose next entry for the same key is a tombstone.
        case deleted
        /// The key's last value, whose expire-at time has passed.
        case expired
    }

    /// The entry's offset in the data file (where its key length starts).
    public var offset: Int
    /// The entry's size in bytes (lengths, key, value and trailer).
    public var size: Int
    /// The key.
    public var key: String
    /// The value payload without the expire trailer; empty for a tombstone.
    public var payload: [UInt8]
    /// Whether the entry is a tombstone (a zero-length value that deletes the key).
    public var isTombstone: Bool
    /// The expire-at time in Unix seconds (0 = never), or `nil` without expiration or for a
    /// tombstone.
    public var expireAt: UInt32?
    /// What became of the entry.
    public var state: State

    /// Creates a history entry.
    public init(
        offset: Int, size: Int, key: String, payload: [UInt8], isTombstone: Bool, expireAt: UInt32?, state: State
    ) {
        self.offset = offset
        self.size = size
        self.key = key
        self.payload = payload
        self.isTombstone = isTombstone
        self.expireAt = expireAt
        self.state = state
    }
}
