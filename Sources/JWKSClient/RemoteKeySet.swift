import DownloadPipeline
import JOSE
import Synchronization
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An issuer's JWK Set at a URL (OpenID Connect's `jwks_uri`), fetched through the download
/// pipeline with its RFC 9111 cache, so that a server verifies tokens without a fetch per request.
///
/// - **Cached by HTTP's rules.** The set is requested with ``DownloadPipeline/CachePolicy/Mode/useProtocol``:
///   while the server's `Cache-Control: max-age` (or `Expires`) holds, the parsed set in memory is
///   used with no I/O at all; after that the cache entry is revalidated (`If-None-Match` with the
///   stored `ETag`, `If-Modified-Since`), and a `304` keeps the parsed keys.
/// - **An unknown `kid` refetches**, because issuers rotate keys before their caches expire: the
///   set is revalidated at once — at most once per ``Configuration/minimumRefreshInterval`` (60 s
///   by default), so tokens naming made-up key IDs cannot make the server hammer the issuer.
/// - **Offline** (``Configuration/offline``): only the cache is read, stale entries included; a
///   miss is an error. A failed refresh serves the stale entry for ``Configuration/staleIfError``.
/// - **Capped**: a response above ``Configuration/maximumSize`` bytes is refused before it is
///   parsed, and the body must be a JSON object with a `keys` array.
///
/// ```swift
/// let cache = try DownloadCache(directory: "Caches/jwks")
/// let downloader = Downloader(transport: NetworkTransport(), configuration: .init(cache: cache))
/// let issuerKeys = RemoteKeySet(url: URL(string: "https://issuer.example/.well-known/jwks.json")!, downloader: downloader)
/// let key = try await issuerKeys.key(for: header)   // by kid, refetching once when it is new
/// ```
public final class RemoteKeySet: Sendable {
    /// How the set is fetched and kept.
    public struct Configuration: Sendable {
        /// The shortest time between two fetches that an unknown `kid` triggers. 60 s by default.
        public var minimumRefreshInterval: Duration
        /// Read only the cache (even a stale entry); never use the network.
        public var offline: Bool
        /// How long past its freshness a cached set is used when a refresh fails (transport error,
        /// timeout, 5xx). One day by default.
        public var staleIfError: Duration?
        /// The largest JWK Set body read, in bytes. 1 MiB by default.
        public var maximumSize: Int
        /// How long a set fetched without a cache, or with no freshness from the server, is used
        /// before it is fetched again. 5 minutes by default.
        public var defaultLifetime: Duration

        /// Creates a configuration; every field has its default unless given.
        public init(minimumRefreshInterval: Duration = .seconds(60), offline: Bool = false,
                    staleIfError: Duration? = .seconds(86_400), maximumSize: Int = 1 << 20,
                    defaultLifetime: Duration = .seconds(300)) {
            self.minimumRefreshInterval = minimumRefreshInterval
            self.offline = offline
            self.staleIfError = staleIfError
            self.maximumSize = maximumSize
            self.defaultLifetime = defaultLifetime
        }
    }

    /// Where the set was read from, and when it stops being used without asking again.
    struct Loaded: Sendable {
        var keySet: JOSEKeySet
        var source: DownloadResult.Source
        var usableUntil: Date
    }

    /// The set's URL.
    public let url: URL
    /// The downloader that fetches it (its cache, if it has one, keeps the set across runs).
    public let downloader: Downloader
    /// How the set is fetched and kept.
    public let configuration: Configuration
    private let now: @Sendable () -> Date
    private let state = Mutex<(loaded: Loaded?, lastForcedRefresh: Date?)>((nil, nil))

    /// A key set at `url`, fetched by `downloader`.
    ///
    /// - Parameter now: The clock (the cache's own, in tests, to move time without sleeping).
    public init(url: URL, downloader: Downloader, configuration: Configuration = Configuration(),
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.url = url
        self.downloader = downloader
        self.configuration = configuration
        self.now = now
    }

    /// Where the last set came from: the network, the cache, a revalidation or a stale entry.
    public var lastSource: DownloadResult.Source? { state.withLock { $0.loaded?.source } }

    /// The set: the one in memory while it is usable, else fetched (or read from the cache).
    ///
    /// - Throws: `DownloadError` when it cannot be fetched (offline: `.notCached` on a miss);
    ///   `JOSEError` when the body is not a JWK Set.
    public func keySet() async throws -> JOSEKeySet {
        if let loaded = state.withLock({ $0.loaded }), now() < loaded.usableUntil { return loaded.keySet }
        return try await load(forcingRefresh: false)
    }

    /// The key for a token whose header names `keyID` (and, if given, `algorithm`): from the set,
    /// or from a set fetched again at once when no key has that `kid` — at most once per
    /// ``Configuration/minimumRefreshInterval``.
    ///
    /// Without a `keyID`, the one key the selector admits is returned.
    ///
    /// - Throws: ``JOSE/JOSEError`` `.keyNotFound` naming the `kid` (and when the set may be
    ///   fetched again, when the refresh was held back), the errors of ``keySet()``.
    public func key(withID keyID: String?, algorithm: String? = nil) async throws -> JOSEKey {
        let selector = KeySelector(keyID: keyID, algorithm: algorithm)
        if let key = Self.single(try await keySet(), selector) { return key }
        guard let keyID else {
            throw JOSEError(.keyNotFound, "the JWK Set at \(url.absoluteString) has no single key for \(algorithm ?? "the token"); name one with kid", url: url.absoluteString)
        }
        let moment = now()
        // The cache entry's age counts too, so that separate processes sharing one cache (keytool
        // runs) fetch at most once per interval between them.
        let stored = downloader.cachedEntry(for: request())?.storedAt
        let allowed = state.withLock { state -> Bool in
            let last = [state.lastForcedRefresh, stored].compactMap { $0 }.max()
            if let last, moment < last.addingTimeInterval(Self.seconds(configuration.minimumRefreshInterval)) {
                return false
            }
            state.lastForcedRefresh = moment
            return true
        }
        guard allowed, !configuration.offline else {
            let why = configuration.offline ? "offline: the cached set was not refreshed"
                : "it was fetched again less than \(Int(Self.seconds(configuration.minimumRefreshInterval))) s ago"
            throw JOSEError(.keyNotFound, "no key with kid \"\(keyID)\" in the JWK Set at \(url.absoluteString) (\(why))", url: url.absoluteString)
        }
        let refreshed = try await load(forcingRefresh: true)
        if let key = Self.single(refreshed, selector) { return key }
        throw JOSEError(.keyNotFound, "no key with kid \"\(keyID)\" in the JWK Set at \(url.absoluteString), fetched again just now", url: url.absoluteString)
    }

    /// Fetches (or reads from the cache) and parses the set, and keeps it in memory.
    private func load(forcingRefresh: Bool) async throws -> JOSEKeySet {
        let mode: CachePolicy.Mode = configuration.offline ? .returnCacheDontLoad : forcingRefresh ? .revalidate : .useProtocol
        let request = request(mode)
        let result = try await downloader.result(for: request)
        let keySet = try JOSEKeySet(jwks: result.data, limits: JOSELimits(maximumTokenSize: configuration.maximumSize))
        let moment = now()
        var usableUntil = moment.addingTimeInterval(Self.seconds(configuration.defaultLifetime))
        if let entry = downloader.cachedEntry(for: request), entry.expiresAt > moment { usableUntil = entry.expiresAt }
        // A stale entry served because the refresh failed: try the network again after the
        // refresh interval rather than on every token.
        if result.source == .stale {
            usableUntil = moment.addingTimeInterval(Self.seconds(configuration.minimumRefreshInterval))
        }
        state.withLock { $0.loaded = Loaded(keySet: keySet, source: result.source, usableUntil: usableUntil) }
        return keySet
    }

    /// The request for the set, under the cache `mode`.
    private func request(_ mode: CachePolicy.Mode = .useProtocol) -> DownloadRequest {
        var request = DownloadRequest(url: url, headers: [("Accept", "application/jwk-set+json, application/json")],
                                      cachePolicy: CachePolicy(mode, staleIfError: configuration.staleIfError))
        request.validators = [.json([("keys", .array)], maximumLength: configuration.maximumSize)]
        return request
    }

    /// The one key of `set` that `selector` admits.
    private static func single(_ set: JOSEKeySet, _ selector: KeySelector) -> JOSEKey? {
        let found = set.keys(matching: selector)
        return found.count == 1 ? found[0] : (selector.keyID == nil ? nil : found.first)
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        TimeInterval(duration.components.seconds) + TimeInterval(duration.components.attoseconds) / 1e18
    }
}
