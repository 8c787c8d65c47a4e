import CofferTestSupport
import DownloadPipeline
import Foundation
import JOSE
import JWKSClient
import Testing

/// An issuer's JWK Set over HTTP (``RemoteKeySet``): kept while the server's freshness holds, fetched
/// again for a new `kid` at most once per interval, read offline from the cache, served stale when
/// the issuer is down, capped in size. The origin is ``CacheOrigin`` on a ``FakeClock``; one test
/// runs against a real loopback server.
@Suite("JWKS over HTTP: cache, key rotation, offline")
struct RemoteKeySetTests {
    let url = URL(string: "https://issuer.test/.well-known/jwks.json")!

    /// RFC 7520's EC key (kid bilbo.baggins@hobbiton.example) and a second key with another kid.
    static func jwks(_ keyIDs: [String]) throws -> [UInt8] {
        let key = try String(contentsOf: ToolProcess.repositoryRoot.appendingPathComponent("Fixtures/jose/cookbook/jwk/3_1.ec_public_key.json"), encoding: .utf8)
        let entries = keyIDs.map { key.replacingOccurrences(of: "bilbo.baggins@hobbiton.example", with: $0) }
        return Array("{\"keys\": [\(entries.joined(separator: ","))]}".utf8)
    }

    static func scene(_ body: [UInt8], headers: [(name: String, value: String)], configuration: RemoteKeySet.Configuration = .init())
        throws -> (FakeClock, DownloadCache, CacheOrigin, RemoteKeySet) {
        let clock = FakeClock()
        let cache = try DownloadCache(directory: try TestScratch.directory("jwks-cache").path, now: clock.now)
        let origin = CacheOrigin(body, headers: headers, clock: clock)
        let downloader = Downloader(transport: origin.transport, configuration: .init(cache: cache))
        let url = URL(string: "https://issuer.test/.well-known/jwks.json")!
        return (clock, cache, origin, RemoteKeySet(url: url, downloader: downloader, configuration: configuration, now: clock.now))
    }

    @Test("a set fresh by max-age is used with no request; after it expires a 304 keeps it")
    func freshness() async throws {
        let (clock, cache, origin, remote) = try Self.scene(try Self.jwks(["k1"]), headers: [("Cache-Control", "max-age=600")])
        defer { cache.close() }
        #expect(try await remote.keySet().keys.map(\.keyID) == ["k1"])
        for _ in 0..<100 { _ = try await remote.key(withID: "k1") }
        #expect(origin.count == 1)
        #expect(remote.lastSource == .network)

        clock.advance(601)
        #expect(try await remote.key(withID: "k1").keyID == "k1")
        #expect(origin.count == 2)
        #expect(origin.lastWasConditional)
        #expect(remote.lastSource == .revalidated)
    }

    @Test("a new kid fetches the set again at once, unless the set was fetched less than the refresh interval ago")
    func rotation() async throws {
        let (clock, cache, origin, remote) = try Self.scene(try Self.jwks(["k1"]), headers: [("Cache-Control", "max-age=3600")])
        defer { cache.close() }
        _ = try await remote.key(withID: "k1")
        origin.replace(try Self.jwks(["k1", "k2"]), etag: "\"v2\"")

        // A set fetched less than a minute ago is current: a new kid does not fetch it again.
        await #expect(throws: JOSEError.self) { try await remote.key(withID: "k2") }
        #expect(origin.count == 1)

        clock.advance(61)
        #expect(try await remote.key(withID: "k2").keyID == "k2")
        #expect(origin.count == 2)

        // A made-up kid right after: refused without asking the issuer again.
        let refused = await #expect(throws: JOSEError.self) { try await remote.key(withID: "forged") }
        #expect(refused?.code == .keyNotFound)
        #expect(refused?.reason.contains("\"forged\"") == true)
        #expect(refused?.reason.contains("less than 60 s ago") == true)
        #expect(origin.count == 2)

        clock.advance(61)
        await #expect(throws: JOSEError.self) { try await remote.key(withID: "forged") }
        #expect(origin.count == 3)
    }

    @Test("offline reads the cache only, stale entries included; a miss is notCached")
    func offline() async throws {
        let body = try Self.jwks(["k1"])
        let (clock, cache, origin, online) = try Self.scene(body, headers: [("Cache-Control", "max-age=10")])
        defer { cache.close() }
        _ = try await online.keySet()
        clock.advance(1000)

        let offline = RemoteKeySet(url: url, downloader: Downloader(transport: origin.transport, configuration: .init(cache: cache)),
                                   configuration: .init(offline: true), now: clock.now)
        #expect(try await offline.key(withID: "k1").keyID == "k1")
        #expect(origin.count == 1)
        let unknown = await #expect(throws: JOSEError.self) { try await offline.key(withID: "k9") }
        #expect(unknown?.reason.contains("offline") == true)

        let elsewhere = RemoteKeySet(url: URL(string: "https://other.test/jwks")!,
                                     downloader: Downloader(transport: origin.transport, configuration: .init(cache: cache)),
                                     configuration: .init(offline: true), now: clock.now)
        let miss = await #expect(throws: DownloadError.self) { try await elsewhere.keySet() }
        #expect(miss?.code == .notCached)
        #expect(origin.count == 1)
    }

    @Test("an issuer that is down serves the stale set within staleIfError")
    func staleIfError() async throws {
        let (clock, cache, origin, remote) = try Self.scene(try Self.jwks(["k1"]), headers: [("Cache-Control", "max-age=10")])
        defer { cache.close() }
        _ = try await remote.keySet()
        clock.advance(3600)
        origin.fail(.status(503))
        #expect(try await remote.key(withID: "k1").keyID == "k1")
        #expect(remote.lastSource == .stale)
    }

    @Test("a body that is not a JWK Set, or is over the size cap, is refused")
    func refusals() async throws {
        let (_, cache, _, remote) = try Self.scene(Array("{\"issuer\": \"x\"}".utf8), headers: [])
        defer { cache.close() }
        await #expect(throws: DownloadError.self) { try await remote.keySet() }

        let big = try Self.jwks(Array(repeating: "k", count: 40).enumerated().map { "k\($0.offset)" })
        let (_, bigCache, _, capped) = try Self.scene(big, headers: [], configuration: .init(maximumSize: 4096))
        defer { bigCache.close() }
        let error = await #expect(throws: DownloadError.self) { try await capped.keySet() }
        #expect(error?.reason.contains("4096") == true)
    }

    @Test("a real issuer on loopback: the set is fetched once, revalidated with its ETag, rotated keys found")
    func realServer() async throws {
        let clock = FakeClock()
        let cache = try DownloadCache(directory: try TestScratch.directory("jwks-real").path, now: clock.now)
        defer { cache.close() }
        let server = try await TestServer.start()
        server.add("jwks", .init(bytes: try Self.jwks(["k1"]), etag: "\"j1\"", headers: ["Cache-Control": "max-age=60"]))
        let transport = NetworkTransport(configuration: .init(connectTimeout: LoopbackTimeouts.connect, idleReadTimeout: LoopbackTimeouts.idleRead))
        let downloader = Downloader(transport: transport, configuration: .init(totalTimeout: LoopbackTimeouts.total, cache: cache))
        let remote = RemoteKeySet(url: server.url("/files/jwks"), downloader: downloader, now: clock.now)

        for _ in 0..<20 { #expect(try await remote.key(withID: "k1").keyID == "k1") }
        #expect(server.hits("jwks") == 1)

        server.add("jwks", .init(bytes: try Self.jwks(["k1", "k2"]), etag: "\"j2\"", headers: ["Cache-Control": "max-age=600"]))
        clock.advance(61)
        #expect(try await remote.key(withID: "k2").keyID == "k2")
        #expect(server.hits("jwks") == 2)
        #expect(server.lastHeaders("jwks")["if-none-match"] == "\"j1\"")
        await server.stop()
        try await transport.shutdown()
    }
}
