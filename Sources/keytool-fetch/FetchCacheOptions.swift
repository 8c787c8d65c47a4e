import ArgumentParser
import DownloadPipeline
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The cache options of `keytool fetch`: where the cache is, which policy a download uses, its
/// limits, and the maintenance commands that need no URL (`--cache-stats`, `--cache-remove`,
/// `--cache-trim`).
struct FetchCacheOptions: ParsableArguments {
    @Option(help: ArgumentHelp("""
        Cache downloads (still encrypted) in this directory. A fresh entry (Cache-Control max-age, \
        Expires, Last-Modified heuristic, or --cache-ttl) is used without a request; a stale one is \
        revalidated with ETag / Last-Modified.
        """, valueName: "dir"))
    var cache: String?

    @Option(name: .customLong("cache-ttl"),
            help: ArgumentHelp("Cached entries are fresh for this long, whatever the server says (needs --cache).", valueName: "seconds"))
    var cacheTTL: Double?

    @Flag(help: "Use only the cache: a cached entry (even stale) is the result; a miss fails without any request (needs --cache).")
    var offline = false

    @Flag(name: .customLong("no-cache"), help: "Do not read the cache: fetch in full, and still store the result (needs --cache).")
    var noCache = false

    @Flag(help: "Revalidate a cached entry with the server even when it is fresh (needs --cache).")
    var refresh = false

    @Option(name: .customLong("cache-max-size"),
            help: ArgumentHelp("Keep the cache within this many bytes, least recently used out first.", valueName: "bytes"))
    var cacheMaxSize: Int?

    @Option(name: .customLong("cache-max-entries"),
            help: ArgumentHelp("Keep at most this many cache entries, least recently used out first.", valueName: "n"))
    var cacheMaxEntries: Int?

    @Flag(name: .customLong("cache-stats"), help: "Print the cache's entries, bytes and expired entries, and exit (no URL).")
    var cacheStats = false

    @Option(name: .customLong("cache-remove"), help: ArgumentHelp("Remove every cache entry for this URL, and exit.", valueName: "url"))
    var cacheRemove: String?

    @Flag(name: .customLong("cache-trim"),
          help: "Remove expired entries, then the least recently used past --cache-max-size / --cache-max-entries, and exit.")
    var cacheTrim = false

    /// Whether the command maintains the cache instead of downloading (no URL).
    var isMaintenance: Bool { cacheStats || cacheRemove != nil || cacheTrim }

    func validate() throws {
        if cache == nil {
            let needing = [("--cache-ttl", cacheTTL != nil), ("--offline", offline), ("--no-cache", noCache), ("--refresh", refresh),
                           ("--cache-max-size", cacheMaxSize != nil), ("--cache-max-entries", cacheMaxEntries != nil),
                           ("--cache-stats", cacheStats), ("--cache-remove", cacheRemove != nil), ("--cache-trim", cacheTrim)]
            if let option = needing.first(where: \.1) { throw ValidationError("\(option.0) needs --cache DIR") }
        }
        guard [offline, noCache, refresh].filter({ $0 }).count <= 1 else {
            throw ValidationError("give at most one of --offline, --no-cache and --refresh")
        }
        if let cacheTTL, !(cacheTTL >= 0 && cacheTTL <= 1e9) {
            throw ValidationError("--cache-ttl must be a number of seconds between 0 and 1000000000")
        }
        if let cacheMaxSize, cacheMaxSize < 0 { throw ValidationError("--cache-max-size must not be negative") }
        if let cacheMaxEntries, cacheMaxEntries < 0 { throw ValidationError("--cache-max-entries must not be negative") }
        if let cacheRemove, URL(string: cacheRemove)?.host == nil { throw ValidationError("--cache-remove needs an http or https URL") }
        guard [cacheStats, cacheRemove != nil, cacheTrim].filter({ $0 }).count <= 1 else {
            throw ValidationError("give at most one of --cache-stats, --cache-remove and --cache-trim")
        }
    }

    /// The policy of a download: HTTP caching, or the mode a flag asks for; `disabled` without
    /// `--cache`.
    var policy: CachePolicy {
        guard cache != nil else { return .disabled }
        let mode: CachePolicy.Mode = offline ? .returnCacheDontLoad : noCache ? .reloadIgnoringCache : refresh ? .revalidate : .useProtocol
        return CachePolicy(mode, ttl: cacheTTL.map { .milliseconds(Int64($0 * 1000)) })
    }

    /// The size and count bounds.
    var limits: CacheLimits {
        CacheLimits(maximumBytes: cacheMaxSize, maximumEntries: cacheMaxEntries)
    }

    /// Runs `--cache-stats`, `--cache-remove` or `--cache-trim` and returns what to print.
    func runMaintenance() throws(DownloadError) -> String {
        guard let cache else { return "" }
        // Limits are applied by --cache-trim only, not as the store opens.
        let store = try DownloadCache(directory: cache)
        defer { store.close() }
        if let cacheRemove, let url = URL(string: cacheRemove) {
            let removed = try store.remove(url: url)
            return "removed \(removed) \(removed == 1 ? "entry" : "entries")\n"
        }
        if cacheTrim {
            let expired = try store.removeExpired()
            let evicted = try store.trim(toSize: cacheMaxSize, count: cacheMaxEntries)
            return "removed \(expired) expired and \(evicted) least recently used \(evicted == 1 ? "entry" : "entries")\n"
        }
        let statistics = store.statistics()
        return "entries: \(statistics.entries)\nbytes: \(statistics.bytes)\nexpired: \(statistics.expired)\n"
    }
}
