/// The bounds of a ``DownloadCache``. When a store goes past one, the least recently used entries
/// (by their last access: stored or served) are removed until it is within again.
public struct CacheLimits: Sendable, Hashable {
    /// The most bytes the entries may take (records and body files), or `nil` for no limit. An
    /// entry larger than this on its own is not kept.
    public var maximumBytes: Int?
    /// The most entries, or `nil` for no limit.
    public var maximumEntries: Int?
    /// The most bytes the memory tier holds (small bodies only: those kept inside the store);
    /// 0 turns the tier off.
    public var memoryBytes: Int

    /// No limit on the store; a memory tier of 8 MiB.
    public static let unlimited = CacheLimits()

    public init(maximumBytes: Int? = nil, maximumEntries: Int? = nil, memoryBytes: Int = 8 * 1024 * 1024) {
        self.maximumBytes = maximumBytes.map { max(0, $0) }
        self.maximumEntries = maximumEntries.map { max(0, $0) }
        self.memoryBytes = max(0, memoryBytes)
    }
}
