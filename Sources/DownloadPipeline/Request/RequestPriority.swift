/// Which waiting transfer starts first when the ``Downloader`` has no free slot: a higher
/// priority always before a lower one; within one priority, the downloader's
/// ``Downloader/SchedulingOrder``. Running transfers are never pre-empted.
public enum RequestPriority: Int, Sendable, Hashable, Comparable, CaseIterable {
    case low = -1
    case normal = 0
    case high = 1

    public static func < (lhs: RequestPriority, rhs: RequestPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
