import CofferTestSupport
@_spi(Oracles) @testable import DownloadPipeline
import Foundation
import KVStorage
import Testing

/// The HTTP cache with a fake clock and a fake origin: freshness (RFC 9111), policies, per-request
/// controls, limits and the memory tier. No test sleeps: time moves with ``FakeClock``.
@Suite("HTTP cache: freshness, policies, limits")
struct HTTPCacheTests {
    let url = URL(string: "http://example.test/resource")!
    let body = Array("cached payload".utf8)

    /// A cache in a scratch directory on `clock`.
    static func cache(_ clock: FakeClock, limits: CacheLimits = .unlimited, inlineLimit: Int = 256 * 1024) throws -> DownloadCache {
        try DownloadCache(directory: try TestScratch.directory("http-cache").path, inlineLimit: inlineLimit, limits: limits, now: clock.now)
    }

    /// A cache on a fake clock, the fake origin `makeOrigin` builds on that clock, and a downloader
    /// over both: what most of these tests start from. The caller closes the cache.
    static func scene(_ makeOrigin: (FakeClock) -> CacheOrigin) throws -> (FakeClock, DownloadCache, CacheOrigin, Downloader) {
        let clock = FakeClock()
        let cache = try Self.cache(clock)
        let origin = makeOrigin(clock)
        return (clock, cache, origin, Downloader(transport: origin.transport, configuration: .init(cache: cache)))
    }

    func request(_ mode: CachePolicy.Mode = .useProtocol, url: URL? = nil, headers: [(name: String, value: String)] = [],
                 ttl: Duration? = nil, version: String? = nil) -> DownloadRequest {
        DownloadRequest(url: url ?? self.url, headers: headers, cachePolicy: CachePolicy(mode, ttl: ttl, version: version))
    }

    /// One freshness rule: the headers the origin sends (given the response date), a moment the
    /// response is still fresh and one it is stale.
    struct Freshness: Sendable, CustomTestStringConvertible {
        var name: String
        var headers: @Sendable (Date) -> [(name: String, value: String)]
        var freshAt: TimeInterval
        var staleAt: TimeInterval
        var testDescription: String { name }
    }

    static let freshnessRules: [Freshness] = [
        Freshness(name: "max-age", headers: { _ in [("Cache-Control", "public, max-age=60")] }, freshAt: 59, staleAt: 61),
        Freshness(name: "Expires minus Date", headers: { date in [("Expires", FakeClock.httpDate(date + 100))] }, freshAt: 99, staleAt: 101),
        Freshness(name: "Age counts against max-age", headers: { _ in [("Cache-Control", "max-age=100"), ("Age", "90")] },
                  freshAt: 9, staleAt: 11),
        Freshness(name: "an old Date counts as age", headers: { date in [("Cache-Control", "max-age=100"), ("Date", FakeClock.httpDate(date - 50))] },
                  freshAt: 49, staleAt: 51),
        Freshness(name: "Last-Modified heuristic (10%)", headers: { date in [("Last-Modified", FakeClock.httpDate(date - 1000))] },
                  freshAt: 99, staleAt: 101),
        Freshness(name: "max-age wins over Expires", headers: { date in [("Cache-Control", "max-age=10"), ("Expires", FakeClock.httpDate(date + 1000))] },
                  freshAt: 9, staleAt: 11),
        Freshness(name: "private is stored by this private cache; s-maxage is ignored",
                  headers: { _ in [("Cache-Control", "private, max-age=30, s-maxage=1000")] }, freshAt: 29, staleAt: 31),
    ]

    @Test("freshness: a fresh entry is served without a request; a stale one is revalidated (304) and freshened",
          arguments: freshnessRules)
    func freshness(_ rule: Freshness) async throws {
        let (clock, cache, origin, downloader) = try Self.scene { clock in CacheOrigin(body, headers: rule.headers(clock.date), clock: clock) }
        defer { cache.close() }
        #expect(try await downloader.result(for: request()).source == .network)

        clock.advance(rule.freshAt)
        let fresh = try await downloader.result(for: request())
        #expect(fresh.source == .cache && fresh.data == body)
        #expect(origin.count == 1)

        clock.advance(rule.staleAt - rule.freshAt)
        // The origin now answers with the same rule, dated now: the 304 freshens the entry.
        origin.setHeaders(rule.headers(clock.date))
        let stale = try await downloader.result(for: request())
        #expect(stale.source == .revalidated && stale.data == body)
        #expect(origin.count == 2 && origin.lastWasConditional)
        let again = try await downloader.result(for: request())
        #expect(again.source == .cache)
        #expect(origin.count == 2)
    }

    @Test("a response without freshness information is stale at once and revalidated")
    func noFreshness() async throws {
        let (clock, cache, _, downloader) = try Self.scene { clock in CacheOrigin(body, clock: clock) }
        defer { cache.close() }
        _ = try await downloader.result(for: request())
        #expect(try await downloader.result(for: request()).source == .revalidated)
        #expect(cache.lookup(request())?.isFresh(at: clock.date) == false)
    }

    @Test("no-store is never stored; no-cache is revalidated on every use even when max-age says fresh")
    func noStoreNoCache() async throws {
        let (clock, cache, origin, downloader) = try Self.scene { clock in CacheOrigin(body, headers: [("Cache-Control", "no-store, max-age=1000")], clock: clock) }
        defer { cache.close() }
        _ = try await downloader.result(for: request())
        #expect(try cache.count() == 0)
        #expect(try await downloader.result(for: request(.returnCacheElseLoad)).source == .network)
        #expect(origin.count == 2)

        origin.setHeaders([("Cache-Control", "no-cache, max-age=1000")])
        _ = try await downloader.result(for: request())
        #expect(try cache.count() == 1)
        for _ in 0..<2 {
            clock.advance(1)
            #expect(try await downloader.result(for: request()).source == .revalidated)
            #expect(origin.lastWasConditional)
        }
        #expect(origin.count == 5)
    }

    @Test("Vary: other values of a named header are a miss; Vary: * is not stored")
    func vary() async throws {
        let (_, cache, origin, downloader) = try Self.scene { clock in CacheOrigin(body, headers: [("Cache-Control", "max-age=1000"), ("Vary", "User-Agent")], clock: clock) }
        defer { cache.close() }
        // User-Agent is left out of the request identity, so only Vary tells the entries apart.
        let a = request(headers: [("User-Agent", "a")])
        #expect(try await downloader.result(for: a).source == .network)
        #expect(try await downloader.result(for: a).source == .cache)
        #expect(try await downloader.result(for: request(headers: [("User-Agent", "b")])).source == .network)
        #expect(try await downloader.result(for: request()).source == .network)
        #expect(origin.count == 3)
        #expect(cache.lookup(a) == nil)
        // Without a User-Agent of its own the request sent the downloader's default one, so the
        // downloader's view finds the entry and a bare cache lookup (no User-Agent) does not.
        #expect(downloader.cachedEntry(for: request()) != nil)
        #expect(cache.lookup(request()) == nil)

        origin.setHeaders([("Cache-Control", "max-age=1000"), ("Vary", "*")])
        try cache.removeAll()
        _ = try await downloader.result(for: request())
        #expect(try cache.count() == 0)
    }

    @Test("a TTL overrides the server's freshness, and stays with the entry it stored")
    func ttl() async throws {
        let (clock, cache, _, downloader) = try Self.scene { clock in CacheOrigin(body, headers: [("Cache-Control", "no-cache")], clock: clock) }
        defer { cache.close() }
        _ = try await downloader.result(for: request(ttl: .seconds(60)))
        clock.advance(30)
        #expect(try await downloader.result(for: request(ttl: .seconds(60))).source == .cache)
        #expect(try await downloader.result(for: request()).source == .cache, "the stored TTL applies")
        #expect(try await downloader.result(for: request(ttl: .seconds(10))).source == .revalidated, "a reader's TTL wins")
        clock.advance(61)
        #expect(try await downloader.result(for: request(ttl: .seconds(60))).source == .revalidated)
        let entry = try #require(cache.lookup(request()))
        #expect(entry.expiresAt == clock.date + 60)
    }

    @Test("a different cache version is a miss, and the new version replaces the entry")
    func version() async throws {
        let (_, cache, origin, downloader) = try Self.scene { clock in CacheOrigin(body, clock: clock) }
        defer { cache.close() }
        _ = try await downloader.result(for: request(.returnCacheElseLoad, version: "1"))
        #expect(try await downloader.result(for: request(.returnCacheElseLoad, version: "1")).source == .cache)
        origin.replace(Array("version two".utf8), etag: "\"v2\"")
        let two = try await downloader.result(for: request(.returnCacheElseLoad, version: "2"))
        #expect(two.source == .network && two.data == Array("version two".utf8))
        #expect(!origin.lastWasConditional)
        #expect(try await downloader.result(for: request(.returnCacheElseLoad, version: "1")).source == .network)
        #expect(try cache.count() == 1)
    }

    @Test("a key filter drops signed-URL tokens from the key; the request itself keeps them")
    func keyFilter() async throws {
        let (_, cache, origin, downloader) = try Self.scene { clock in CacheOrigin(body, clock: clock) }
        defer { cache.close() }
        func signed(_ query: String) -> DownloadRequest {
            DownloadRequest(url: URL(string: "http://example.test/object?\(query)")!,
                            cachePolicy: CachePolicy(.returnCacheElseLoad, keyFilter: .droppingQueryItems(["token", "expires"])))
        }
        _ = try await downloader.result(for: signed("id=1&token=aaa&expires=1"))
        #expect(origin.transport.requests.last?.url.query == "id=1&token=aaa&expires=1")
        #expect(try await downloader.result(for: signed("id=1&token=bbb&expires=2")).source == .cache)
        #expect(try await downloader.result(for: signed("id=2&token=bbb")).source == .network)
        #expect(origin.count == 2)
        #expect(cache.entries(for: URL(string: "http://example.test/object?id=1")!).count == 1)
        // Without the filter the tokens are part of the key.
        let unfiltered = DownloadRequest(url: URL(string: "http://example.test/object?id=1&token=ccc&expires=3")!,
                                         cachePolicy: .enabled(storeDecrypted: false, revalidate: false))
        #expect(try await downloader.result(for: unfiltered).source == .network)
    }

    @Test("the count limit evicts the least recently used entry")
    func countLimit() async throws {
        let clock = FakeClock()
        let cache = try Self.cache(clock, limits: CacheLimits(maximumEntries: 2))
        defer { cache.close() }
        let origin = CacheOrigin(body, clock: clock)
        let downloader = Downloader(transport: origin.transport, configuration: .init(cache: cache))
        let urls = ["a", "b", "c"].map { URL(string: "http://example.test/\($0)")! }
        for url in urls[0..<2] {
            _ = try await downloader.result(for: request(.returnCacheElseLoad, url: url))
            clock.advance(1)
        }
        // Using a makes b the least recently used.
        #expect(try await downloader.result(for: request(.returnCacheElseLoad, url: urls[0])).source == .cache)
        clock.advance(1)
        _ = try await downloader.result(for: request(.returnCacheElseLoad, url: urls[2]))
        #expect(try cache.count() == 2)
        #expect(cache.lookup(request(url: urls[0])) != nil)
        #expect(cache.lookup(request(url: urls[1])) == nil)
        #expect(cache.lookup(request(url: urls[2])) != nil)
    }

    @Test("the size limit evicts least recently used entries, body files included")
    func sizeLimit() async throws {
        let clock = FakeClock()
        let large = [UInt8](repeating: 0x61, count: 10_000)
        // Bodies over 1 KiB go to files: the limit counts them.
        let cache = try Self.cache(clock, limits: CacheLimits(maximumBytes: 25_000), inlineLimit: 1024)
        defer { cache.close() }
        let origin = CacheOrigin(large, clock: clock)
        let downloader = Downloader(transport: origin.transport, configuration: .init(cache: cache))
        for name in ["a", "b", "c"] {
            _ = try await downloader.result(for: request(.returnCacheElseLoad, url: URL(string: "http://example.test/\(name)")!))
            clock.advance(1)
        }
        let statistics = cache.statistics()
        #expect(statistics.entries == 2)
        #expect(statistics.bytes <= 25_000 && statistics.bytes > 20_000)
        #expect(cache.lookup(request(url: URL(string: "http://example.test/a")!)) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: try #require(cache.bodyDirectory)).count == 2)
    }

    @Test("trim(toSize:count:) and removeExpired() remove what they say; statistics count it")
    func trimAndRemoveExpired() async throws {
        let clock = FakeClock()
        let cache = try Self.cache(clock)
        let origin = CacheOrigin(body, clock: clock)
        let downloader = Downloader(transport: origin.transport, configuration: .init(cache: cache))
        for (name, maxAge) in [("a", 10), ("b", 100), ("c", 1000), ("d", 1000)] {
            origin.setHeaders([("Cache-Control", "max-age=\(maxAge)")])
            _ = try await downloader.result(for: request(url: URL(string: "http://example.test/\(name)")!))
        }
        clock.advance(50)
        #expect(cache.statistics().expired == 1)
        #expect(try cache.removeExpired() == 1)
        #expect(cache.statistics().entries == 3 && cache.statistics().expired == 0)
        // b was used last: trimming to one entry keeps it.
        #expect(try await downloader.result(for: request(url: URL(string: "http://example.test/b")!)).source == .cache)
        #expect(try cache.trim(count: 1) == 2)
        #expect(cache.entries(for: URL(string: "http://example.test/b")!).count == 1)
        #expect(try cache.trim(toSize: 0) == 1)
        #expect(cache.statistics() == CacheStatistics(entries: 0, bytes: 0, expired: 0, memoryEntries: 0, memoryBytes: 0))
        cache.close()
    }

    @Test("lookup and remove: an entry's metadata, then gone; last access survives reopening")
    func lookupAndRemove() async throws {
        let clock = FakeClock()
        let directory = try TestScratch.directory("http-cache").path
        let cache = try DownloadCache(directory: directory, now: clock.now)
        let origin = CacheOrigin(body, headers: [("Cache-Control", "max-age=60")], clock: clock)
        let downloader = Downloader(transport: origin.transport, configuration: .init(cache: cache))
        let stored = clock.date
        _ = try await downloader.result(for: request())
        clock.advance(5)
        _ = try await downloader.result(for: request())
        let entry = try #require(downloader.cachedEntry(for: request()))
        #expect(entry.status == 200 && entry.bodyLength == body.count && entry.storedAt == stored)
        #expect(entry.expiresAt == stored + 60 && entry.lastAccess == stored + 5)
        #expect(entry.headers.contains { $0.name == "ETag" && $0.value == "\"v1\"" })
        cache.close()

        let reopened = try DownloadCache(directory: directory, now: clock.now)
        defer { reopened.close() }
        #expect(reopened.lookup(request())?.lastAccess == stored + 5)
        #expect(try reopened.remove(request()))
        #expect(reopened.lookup(request()) == nil)
        #expect(try !reopened.remove(request()))
        #expect(try reopened.count() == 0)
    }

    @Test("a memory-tier hit reads nothing from the store")
    func memoryTier() async throws {
        let clock = FakeClock()
        for memoryBytes in [1024 * 1024, 0] {
            let cache = try Self.cache(clock, limits: CacheLimits(memoryBytes: memoryBytes))
            defer { cache.close() }
            let origin = CacheOrigin(body, clock: clock)
            let downloader = Downloader(transport: origin.transport, configuration: .init(cache: cache))
            _ = try await downloader.result(for: request(.returnCacheElseLoad))
            // Take the record out of the store behind the cache's back.
            try cache.store.remove(try cache.store.allKeys().filter { $0.hasPrefix("dl.") })
            let second = try await downloader.result(for: request(.returnCacheElseLoad))
            #expect(second.source == (memoryBytes > 0 ? .cache : .network), "memory tier of \(memoryBytes) bytes")
            #expect(second.data == body)
        }
    }

    @Test("returnCacheDontLoad: any entry, even stale, without a request; a miss fails with notCached and no request")
    func offline() async throws {
        let (clock, cache, origin, downloader) = try Self.scene { clock in CacheOrigin(body, headers: [("Cache-Control", "max-age=1")], clock: clock) }
        defer { cache.close() }
        _ = try await downloader.result(for: request())
        clock.advance(1000)
        let hit = try await downloader.result(for: request(.returnCacheDontLoad))
        #expect(hit.source == .cache && hit.data == body)
        do {
            _ = try await downloader.result(for: request(.returnCacheDontLoad, url: URL(string: "http://example.test/other")!))
            Issue.record("a miss must fail")
        } catch {
            #expect(error.code == .notCached)
            #expect(error.description.contains("http://example.test/other"))
        }
        #expect(origin.count == 1)
    }

    @Test("stale-if-error: a 5xx or a refused connection serves a stale entry within the bound, not past it, not with must-revalidate")
    func staleIfError() async throws {
        let (clock, cache, origin, downloader) = try Self.scene { clock in CacheOrigin(body, headers: [("Cache-Control", "max-age=10")], clock: clock) }
        defer { cache.close() }
        var policy = CachePolicy(.useProtocol, staleIfError: .seconds(60))
        var bounded = DownloadRequest(url: url, cachePolicy: policy)
        _ = try await downloader.result(for: bounded)
        clock.advance(30)
        for failure in [CacheOrigin.Failure.status(500), .status(503), .refused] {
            origin.fail(failure)
            let stale = try await downloader.result(for: bounded)
            #expect(stale.source == .stale && stale.data == body, "\(failure)")
        }
        origin.fail(.status(404))
        await #expect(throws: DownloadError.self) { try await downloader.result(for: bounded) }
        origin.fail(.status(500))
        await #expect(throws: DownloadError.self, "no bound, no stale-if-error in the response") {
            try await downloader.result(for: DownloadRequest(url: url, cachePolicy: .useProtocol()))
        }
        clock.advance(100)
        await #expect(throws: DownloadError.self, "past the bound") { try await downloader.result(for: bounded) }

        // must-revalidate: the request's bound does not apply.
        origin.fail(.none)
        origin.setHeaders([("Cache-Control", "max-age=10, must-revalidate")])
        policy.mode = .reloadIgnoringCache
        _ = try await downloader.result(for: DownloadRequest(url: url, cachePolicy: policy))
        clock.advance(30)
        origin.fail(.status(500))
        await #expect(throws: DownloadError.self, "must-revalidate") { try await downloader.result(for: bounded) }

        // The response's own stale-if-error (RFC 5861) applies without a bound in the request.
        origin.fail(.none)
        origin.setHeaders([("Cache-Control", "max-age=10, stale-if-error=100")])
        _ = try await downloader.result(for: DownloadRequest(url: url, cachePolicy: policy))
        clock.advance(50)
        origin.fail(.refused)
        bounded.cachePolicy = .useProtocol()
        #expect(try await downloader.result(for: bounded).source == .stale)
    }

    @Test("reloadIgnoringCache fetches in full (no conditional request) and still stores")
    func reloadIgnoringCache() async throws {
        let (_, cache, origin, downloader) = try Self.scene { clock in CacheOrigin(body, headers: [("Cache-Control", "max-age=1000")], clock: clock) }
        defer { cache.close() }
        _ = try await downloader.result(for: request())
        origin.replace(Array("new content".utf8), etag: "\"v2\"")
        let reloaded = try await downloader.result(for: request(.reloadIgnoringCache))
        #expect(reloaded.source == .network && reloaded.data == Array("new content".utf8))
        #expect(!origin.lastWasConditional)
        let cached = try await downloader.result(for: request(.returnCacheDontLoad))
        #expect(cached.data == Array("new content".utf8))
        #expect(origin.count == 2)
    }

    @Test("returnCacheThenRevalidate: the cached result at once, the entry refreshed in the background")
    func cacheThenRevalidate() async throws {
        let (_, cache, origin, downloader) = try Self.scene { clock in CacheOrigin(body, clock: clock) }
        defer { cache.close() }
        _ = try await downloader.result(for: request())
        origin.replace(Array("refreshed".utf8), etag: "\"v2\"")
        let events = downloader.eventStream()
        let first = try await downloader.result(for: request(.returnCacheThenRevalidate))
        #expect(first.source == .cache && first.data == body)
        // Two transfers finish: the cached answer and the background refresh.
        var finished = 0
        for await event in events {
            if case .finish(_, _, let error) = event.kind {
                #expect(error == nil)
                finished += 1
                if finished == 2 { break }
            }
        }
        #expect(origin.count == 2 && origin.lastWasConditional)
        #expect(try await downloader.result(for: request(.returnCacheDontLoad)).data == Array("refreshed".utf8))

        // Both results in one call: cached, then revalidated (304, unchanged) or new.
        var results: [DownloadResult] = []
        for try await result in downloader.resultThenRefresh(for: request()) { results.append(result) }
        #expect(results.map(\.source) == [.cache, .revalidated])
        origin.replace(Array("third".utf8), etag: "\"v3\"")
        results = []
        for try await result in downloader.resultThenRefresh(for: request()) { results.append(result) }
        #expect(results.map(\.source) == [.cache, .network])
        #expect(results.map(\.data) == [Array("refreshed".utf8), Array("third".utf8)])
        // Nothing cached: only the network result.
        results = []
        for try await result in downloader.resultThenRefresh(for: request(url: URL(string: "http://example.test/new")!)) {
            results.append(result)
        }
        #expect(results.map(\.source) == [.network])
    }

    @Test("a cache write failure (the body directory is a file) does not fail the download; it is an event")
    func writeFailure() async throws {
        let clock = FakeClock()
        let cache = try Self.cache(clock, inlineLimit: 16)
        defer { cache.close() }
        let bodyDirectory = try #require(cache.bodyDirectory)
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: bodyDirectory))
        let large = [UInt8](repeating: 0x62, count: 5000)
        let origin = CacheOrigin(large, clock: clock)
        let downloader = Downloader(transport: origin.transport, configuration: .init(cache: cache))
        let events = downloader.eventStream()
        let result = try await downloader.result(for: request())
        #expect(result.source == .network && result.data == large)
        var reason: String?
        for await event in events {
            if case .cacheStoreFailed(let why) = event.kind { reason = why }
            if case .finish = event.kind { break }
        }
        #expect(reason?.contains(bodyDirectory) == true, "\(reason ?? "no event")")
        #expect(try cache.count() == 0)
    }

    @Test("a real server, then stopped: offline serves the cached body, a miss fails without a request, stale-if-error answers a refused connection")
    func stoppedServer() async throws {
        let clock = FakeClock()
        let cache = try Self.cache(clock)
        defer { cache.close() }
        let server = try await TestServer.start()
        server.add("doc", .init(bytes: body, etag: "\"d1\"", headers: ["Cache-Control": "max-age=60"]))
        let transport = NetworkTransport(configuration: .init(connectTimeout: LoopbackTimeouts.connect, idleReadTimeout: LoopbackTimeouts.idleRead))
        let downloader = Downloader(transport: transport, configuration: .init(totalTimeout: LoopbackTimeouts.total, cache: cache))
        let url = server.url("/files/doc")
        let other = server.url("/files/other")
        let first = try await downloader.result(for: DownloadRequest(url: url, cachePolicy: .useProtocol()))
        #expect(first.source == .network && server.hits("doc") == 1)
        clock.advance(30)
        #expect(try await downloader.result(for: DownloadRequest(url: url, cachePolicy: .useProtocol())).source == .cache)
        #expect(server.hits("doc") == 1)
        await server.stop()

        clock.advance(3600)
        let offline = try await downloader.result(for: DownloadRequest(url: url, cachePolicy: CachePolicy(.returnCacheDontLoad)))
        #expect(offline.source == .cache && offline.data == body)
        do {
            _ = try await downloader.result(for: DownloadRequest(url: other, cachePolicy: CachePolicy(.returnCacheDontLoad)))
            Issue.record("a miss must fail")
        } catch {
            #expect(error.code == .notCached)
        }
        let stale = try await downloader.result(for: DownloadRequest(url: url, cachePolicy: CachePolicy(.useProtocol, staleIfError: .seconds(7200))))
        #expect(stale.source == .stale && stale.data == body)
        do {
            _ = try await downloader.result(for: DownloadRequest(url: url, cachePolicy: .useProtocol()))
            Issue.record("a stale entry without stale-if-error must not hide the failure")
        } catch {
            #expect(error.code == .transport)
        }
        #expect(server.hits("other") == 0)
        try await transport.shutdown()
    }

    @Test("Vary values are stored hashed (a credential never lands in the store in clear); only GET is cached")
    func varySecretsAndMethods() async throws {
        let clock = FakeClock()
        let directory = try TestScratch.directory("http-cache").path
        let cache = try DownloadCache(directory: directory, now: clock.now)
        let origin = CacheOrigin(body, headers: [("Cache-Control", "max-age=100"), ("Vary", "Authorization")], clock: clock)
        let downloader = Downloader(transport: origin.transport, configuration: .init(cache: cache))
        let secret = "Bearer sk-very-secret-token-1234"
        let authorized = request(headers: [("Authorization", secret)])
        _ = try await downloader.result(for: authorized)
        #expect(try await downloader.result(for: authorized).source == .cache)
        #expect(try await downloader.result(for: request(headers: [("Authorization", "Bearer other")])).source == .network)
        var post = request()
        post.method = "POST"
        _ = try await downloader.result(for: post)
        #expect(try await downloader.result(for: post).source == .network)
        #expect(origin.count == 4)
        cache.close()
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            guard let bytes = FileManager.default.contents(atPath: directory + "/" + name) else { continue }
            #expect(bytes.range(of: Data("sk-very-secret".utf8)) == nil, "\(name)")
        }
    }

    @Test("reopening: the index comes back; an entry whose body file is gone is a miss and stops counting")
    func reopenAndMissingBody() async throws {
        let clock = FakeClock()
        let directory = try TestScratch.directory("http-cache").path
        let large = [UInt8](repeating: 0x63, count: 4000)
        do {
            let cache = try DownloadCache(directory: directory, inlineLimit: 1024, now: clock.now)
            defer { cache.close() }
            let origin = CacheOrigin(large, headers: [("Cache-Control", "max-age=100")], clock: clock)
            let downloader = Downloader(transport: origin.transport, configuration: .init(cache: cache))
            for name in ["a", "b"] { _ = try await downloader.result(for: request(url: URL(string: "http://example.test/\(name)")!)) }
        }
        let cache = try DownloadCache(directory: directory, inlineLimit: 1024, now: clock.now)
        defer { cache.close() }
        #expect(cache.statistics().entries == 2 && cache.statistics().bytes > 8000)
        let bodies = try #require(cache.bodyDirectory)
        let files = try FileManager.default.contentsOfDirectory(atPath: bodies)
        #expect(files.count == 2)
        try FileManager.default.removeItem(atPath: bodies + "/" + files[0])
        let origin = CacheOrigin(large, headers: [("Cache-Control", "max-age=100")], clock: clock)
        let downloader = Downloader(transport: origin.transport, configuration: .init(cache: cache))
        let sources = try await [downloader.result(for: request(url: URL(string: "http://example.test/a")!)).source,
                                 downloader.result(for: request(url: URL(string: "http://example.test/b")!)).source]
        #expect(sources.sorted { $0.rawValue < $1.rawValue } == [.cache, .network])
        #expect(cache.statistics().entries == 2, "the refetched entry is stored again")
        #expect(try FileManager.default.contentsOfDirectory(atPath: bodies).count == 2)
    }

    @Test("Cache-Control parsing: quoted commas, case, invalid and repeated numbers")
    func cacheControl() {
        let control = CacheControl("No-Cache=\"a, b\", MAX-AGE=20, max-age=5, stale-if-error=x")
        #expect(control.noCache)
        #expect(control.maxAge == 5)
        #expect(control.staleIfError == 0)
        #expect(!control.noStore)
        #expect(CacheControl("max-age=99999999999999999999").maxAge == CacheControl.deltaSecondsCap)
        #expect(CacheControl("max-age=\"30\"").maxAge == 30)
    }
}

/// Damaged cache records read from disk: a miss or a record, never a trap.
@Suite("Cache records from a damaged disk")
struct CacheRecordDamageTests {
    /// A `CDC2` record by its layout, with the TTL field given.
    static func record(ttl: [UInt8]) -> [UInt8] {
        func length(_ count: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: count >> (8 * $0)) } }
        func string(_ text: String) -> [UInt8] { length(text.utf8.count) + Array(text.utf8) }
        let time: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 1]
        return Array("CDC2".utf8) + [8] + [0, 200] + string("http://example.test/") + length(0)
            + time + time + ttl + string("http://example.test/") + length(0) + Array("body".utf8)
    }

    @Test("a TTL past Int64 milliseconds reads clamped instead of trapping")
    func hugeTTL() {
        // Before the clamp this record trapped in Int64(Double) while the cache index loaded.
        #expect(CacheOracles.recordRoundTrips(Self.record(ttl: [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])) == true)
        #expect(CacheOracles.recordRoundTrips(Self.record(ttl: [0, 0, 0, 0, 0, 0, 0x03, 0xE8])) == true)
        #expect(CacheOracles.recordRoundTrips(Array(Self.record(ttl: [0, 0, 0, 0, 0, 0, 0, 0]).prefix(20))) == nil)
    }
}
