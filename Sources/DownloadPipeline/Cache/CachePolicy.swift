/// Whether and how a download uses the ``DownloadCache`` (which the ``Downloader`` must have):
/// the policy's ``Mode``, the form stored, and the per-request controls (TTL, version, key
/// filter, stale-if-error).
///
/// ``disabled`` (the default) neither reads nor writes. ``enabled(storeDecrypted:revalidate:)``
/// keeps the two policies of earlier versions: always revalidate, or return any cached result.
public struct CachePolicy: Sendable, Hashable {
    /// When the cache answers and when the network is asked.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// Neither read nor written.
        case disabled
        /// HTTP caching (RFC 9111): a fresh entry is returned without a request; a stale one is
        /// revalidated with a conditional request (`If-None-Match` / `If-Modified-Since`, 304)
        /// or fetched again. The response's `Cache-Control`, `Expires`, `Age`, `Date` and `Vary`
        /// decide (see ``DownloadCache``).
        case useProtocol
        /// Every use is confirmed with a conditional request, fresh or not (what the request
        /// directive `no-cache` asks for; `enabled(storeDecrypted:revalidate: true)`).
        case revalidate
        /// Any cached entry is returned, fresh or stale, without a request; a miss loads.
        case returnCacheElseLoad
        /// Offline: any cached entry is returned; a miss fails with
        /// ``CofferErrors/ErrorCode/notCached`` and no request is ever made.
        case returnCacheDontLoad
        /// The cache is not read; the response is fetched in full and still stored.
        case reloadIgnoringCache
        /// A cached entry (fresh or stale) is returned at once and refreshed in the background: a
        /// conditional request updates the entry for the next caller. A miss loads. For both results
        /// in one call see ``Downloader/resultThenRefresh(for:)``.
        case returnCacheThenRevalidate
    }

    /// When the cache answers.
    public var mode: Mode
    /// Stores the decrypted result rather than the body as it arrived (still encrypted, decrypted
    /// again on every hit).
    public var storeDecrypted: Bool
    /// Overrides the server's freshness: an entry is fresh for this long after it was received
    /// (YTKNetwork's `cacheTimeInSeconds`). Replaces `max-age`, `Expires`, the heuristic and the
    /// response's `no-cache`; `no-store` still keeps a response out of the cache.
    public var ttl: Duration?
    /// The version of the cached data (YTKNetwork's `cacheVersion`): an entry stored under another
    /// version is a miss (and is replaced by the next store).
    public var version: String?
    /// Rewrites the URL before it keys the cache (e.g. drops signed-URL tokens), so that requests
    /// differing only there share one entry. The request itself is sent unchanged.
    public var keyFilter: CacheKeyFilter?
    /// After a transport failure, a timeout or a 5xx, a stale entry this much past its freshness
    /// may be returned instead of the error (not when the response said `must-revalidate`). The
    /// response's own `stale-if-error=N` (RFC 5861) is honoured too. `nil`: only the response's.
    public var staleIfError: Duration?

    /// Creates a policy.
    public init(_ mode: Mode, storeDecrypted: Bool = false, ttl: Duration? = nil, version: String? = nil,
                keyFilter: CacheKeyFilter? = nil, staleIfError: Duration? = nil) {
        self.mode = mode
        self.storeDecrypted = storeDecrypted
        self.ttl = ttl
        self.version = version
        self.keyFilter = keyFilter
        self.staleIfError = staleIfError
    }

    /// Neither read nor written.
    public static let disabled = CachePolicy(.disabled)

    /// Stores the body as it arrived or decrypted. With `revalidate` every hit is confirmed with a
    /// conditional request (``Mode/revalidate``); without it any hit is returned without a request
    /// (``Mode/returnCacheElseLoad``).
    public static func enabled(storeDecrypted: Bool, revalidate: Bool) -> CachePolicy {
        CachePolicy(revalidate ? .revalidate : .returnCacheElseLoad, storeDecrypted: storeDecrypted)
    }

    /// HTTP caching (``Mode/useProtocol``).
    public static func useProtocol(storeDecrypted: Bool = false) -> CachePolicy {
        CachePolicy(.useProtocol, storeDecrypted: storeDecrypted)
    }

    /// Whether the cache is used at all.
    public var isEnabled: Bool { mode != .disabled }

    /// Whether the cache is read before the network.
    var reads: Bool { mode != .disabled && mode != .reloadIgnoringCache }

    /// Names the policy in a transfer key: requests with different policies never share a transfer.
    var identity: String {
        guard isEnabled else { return "off" }
        var parts = [mode.rawValue, "decrypted=\(storeDecrypted)"]
        if let ttl { parts.append("ttl=\(ttl)") }
        if let version { parts.append("version=\(version.count):\(version)") }
        if let keyFilter { parts.append("filter=\(keyFilter.identity)") }
        if let staleIfError { parts.append("stale-if-error=\(staleIfError)") }
        return parts.joined(separator: ",")
    }
}
