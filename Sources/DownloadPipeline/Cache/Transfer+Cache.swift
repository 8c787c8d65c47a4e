#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The cache stages of a transfer: what the cache answers before the network, conditional
/// requests and 304s, storing the result, and a stale result in place of a failure.
extension Transfer {
    /// The cache this request uses: the downloader's, when the policy is not `disabled` and the
    /// method is `GET` (the identity does not cover a request body, so other methods are never
    /// cached; an offline request with another method is a miss).
    var activeCache: DownloadCache? {
        guard request.cachePolicy.isEnabled, request.method.uppercased() == "GET", request.body == nil else { return nil }
        return downloader.configuration.cache
    }

    /// The cached record this request may use: stored under its cache key, with its cache version
    /// and its values of the headers `Vary` named; `nil` when the policy does not read the cache.
    func usableCacheRecord() -> CacheRecord? {
        let policy = request.cachePolicy
        guard let cache = activeCache, policy.reads, let record = cache.record(for: identity.cacheKey) else { return nil }
        guard record.version == policy.version, record.varyMatches(request.headers) else { return nil }
        return record
    }

    /// The result the cache gives without asking the server, or `nil` when the network is needed.
    ///
    /// - Throws: `notCached` for an offline request (``CachePolicy/Mode/returnCacheDontLoad``)
    ///   without a usable entry.
    func answerFromCache(_ cached: CacheRecord?) async throws(DownloadError) -> DownloadResult? {
        let policy = request.cachePolicy
        switch policy.mode {
        case .returnCacheDontLoad:
            guard let cached else { throw DownloadError.notCached(url: request.url.absoluteString) }
            return try await deliver(cached, source: .cache)
        case .returnCacheElseLoad:
            guard let cached else { return nil }
            return try await deliver(cached, source: .cache)
        case .returnCacheThenRevalidate:
            guard let cached else { return nil }
            let result = try await deliver(cached, source: .cache)
            var refresh = request
            refresh.cachePolicy.mode = .revalidate
            refresh.destination = .file("/dev/null")
            refresh.progress = nil
            refresh.resumeFile = nil
            downloader.refreshInBackground(refresh, decryptor: decryptor, responseModifier: responseModifier)
            return result
        case .useProtocol:
            guard let cached, let cache = activeCache,
                  cached.freshness.isFresh(at: cache.now(), ttl: policy.ttl ?? cached.ttl) else { return nil }
            return try await deliver(cached, source: .cache)
        case .disabled, .revalidate, .reloadIgnoringCache:
            return nil
        }
    }

    /// A stale cached result for a request that failed with `error` (a transport failure, a
    /// timeout or a 5xx), within the policy's `staleIfError` bound or the response's own
    /// `stale-if-error`; `nil` when none may be served.
    func staleResult(_ cached: CacheRecord?, after error: DownloadError) async throws(DownloadError) -> DownloadResult? {
        guard let cached, let cache = activeCache else { return nil }
        let serverFailed = error.code == .badStatus && (500..<600).contains(error.status ?? 0)
        guard error.code == .transport || error.code == .timeout || serverFailed else { return nil }
        let policy = request.cachePolicy
        guard cached.freshness.allowsStaleOnError(at: cache.now(), ttl: policy.ttl ?? cached.ttl, bound: policy.staleIfError) else {
            return nil
        }
        return try await deliver(cached, source: .stale)
    }

    /// Freshens `cached` with a 304's headers and stores it again (a failure to store is an event).
    func freshen(_ cached: CacheRecord, with head: DownloadResponse, times: (request: Date, response: Date)?) -> CacheRecord {
        guard let cache = activeCache, let times else { return cached }
        let (record, failure) = cache.freshen(cached, with: head, identity: identity, request: request,
                                              requestTime: times.request, responseTime: times.response)
        if let failure { emit(.cacheStoreFailed(reason: failure)) }
        return record
    }

    /// A writer for the cached copy of a response with head `head`, or `nil` when nothing is
    /// cached (no cache, or the response or request forbids storing).
    func makeCacheWriter(for head: DownloadResponse) -> CacheBodyWriter? {
        guard let cache = activeCache, DownloadCache.refusal(for: head, request: request) == nil else { return nil }
        return cache.makeBodyWriter()
    }

    /// Stores a complete body; a failure is a `cacheStoreFailed` event, never an error.
    func storeInCache(_ receiving: ReceivingBody) {
        guard let cache = activeCache, let writer = receiving.processor.cacheWriter else { return }
        let now = cache.now()
        let times = receiving.cacheTimes ?? (now, now)
        if let failure = cache.store(decrypted: request.cachePolicy.storeDecrypted || decryptor == nil, response: receiving.head,
                                     body: writer, identity: identity, request: request,
                                     requestTime: times.request, responseTime: times.response) {
            emit(.cacheStoreFailed(reason: failure))
        }
    }
}
