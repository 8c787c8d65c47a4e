#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Rewrites a request's URL before it keys the cache, e.g. to drop the query parameters of a
/// signed URL (tokens, expiry stamps) so that every signature of one object shares one entry.
///
/// Two filters are the same when their ``identity`` is (as for ``ResponseModifier``): requests
/// with different filters never share a transfer.
public struct CacheKeyFilter: Sendable, Hashable {
    /// Names the filter and its parameters.
    public var identity: String
    /// The rewrite.
    public var transform: @Sendable (URL) -> URL

    /// Creates a filter.
    public init(identity: String, _ transform: @escaping @Sendable (URL) -> URL) {
        self.identity = identity
        self.transform = transform
    }

    /// Drops the query parameters `names` (compared exactly); the others keep their order. A query
    /// left empty is removed.
    public static func droppingQueryItems(_ names: Set<String>) -> CacheKeyFilter {
        CacheKeyFilter(identity: "drop-query:" + names.sorted().joined(separator: "&")) { url in
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true), let items = components.queryItems else {
                return url
            }
            let kept = items.filter { !names.contains($0.name) }
            components.queryItems = kept.isEmpty ? nil : kept
            return components.url ?? url
        }
    }

    public static func == (lhs: CacheKeyFilter, rhs: CacheKeyFilter) -> Bool { lhs.identity == rhs.identity }

    public func hash(into hasher: inout Hasher) { hasher.combine(identity) }
}
