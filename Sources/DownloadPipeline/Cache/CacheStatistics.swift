/// A summary of a ``DownloadCache``: ``DownloadCache/statistics()``.
public struct CacheStatistics: Sendable, Hashable {
    /// Entries stored.
    public var entries: Int
    /// Their size: records and body files (what ``CacheLimits/maximumBytes`` counts).
    public var bytes: Int
    /// Entries no longer fresh (what ``DownloadCache/removeExpired()`` would remove).
    public var expired: Int
    /// Entries in the memory tier, and their cost in bytes.
    public var memoryEntries: Int
    public var memoryBytes: Int

    public init(entries: Int, bytes: Int, expired: Int, memoryEntries: Int, memoryBytes: Int) {
        self.entries = entries
        self.bytes = bytes
        self.expired = expired
        self.memoryEntries = memoryEntries
        self.memoryBytes = memoryBytes
    }
}
