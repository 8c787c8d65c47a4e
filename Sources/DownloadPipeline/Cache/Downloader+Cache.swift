/// The cache seen from the downloader: entries keyed as its transfers key them, and "cached now,
/// refreshed next".
extension Downloader {
    /// Yields the cached result of `request` at once (when there is one), then the result of
    /// revalidating it with the server: ``DownloadResult/Source/revalidated`` when the server
    /// answered 304, ``DownloadResult/Source/network`` with the new content otherwise (the entry is
    /// updated either way). SDWebImage's `RefreshCached`, for async/await: iterate, show the first
    /// result, replace it with the second.
    ///
    /// The request's ``CachePolicy`` gives the form stored, TTL, version and key filter; its mode
    /// is not used (the first result reads the cache only, the second always asks the server).
    /// Without a cache entry only the second result comes. A failure of the refresh ends the
    /// sequence with that error (after the cached result, when there was one). Cancelling the
    /// iterating task cancels the refresh.
    public func resultThenRefresh(for request: DownloadRequest) -> AsyncThrowingStream<DownloadResult, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var cachedRequest = request
                cachedRequest.cachePolicy.mode = .returnCacheDontLoad
                if let cached = try? await self.result(for: cachedRequest) { continuation.yield(cached) }
                var refresh = request
                refresh.cachePolicy.mode = .revalidate
                do {
                    continuation.yield(try await self.result(for: refresh))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// What the cache holds for `request` as this downloader keys it (its default decryptor and
    /// response modifier, its ignored headers, its base URL and default headers); `nil` without a
    /// cache or an entry. The request modifier does not run.
    public func cachedEntry(for request: DownloadRequest) -> CacheEntry? {
        // The request as the pipeline sends it: the URL resolved against the base URL, without
        // user info, and the default headers (which a stored `Vary` may name) added.
        var request = request
        request.url = configuration.resolvedURL(for: request)
        Configuration.moveUserInfo(of: &request)
        configuration.addDefaultHeaders(to: &request)
        return configuration.cache?.lookup(request, decryptor: request.decryptor ?? configuration.decryptor,
                                    responseModifier: request.responseModifier ?? configuration.responseModifier,
                                    ignoredHeaders: configuration.headersIgnoredForIdentity)
    }
}
