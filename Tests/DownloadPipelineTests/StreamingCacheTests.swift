import CofferTestSupport
import CryptoOpenSSL
import DownloadPipeline
import Foundation
import Synchronization
import Testing

@Suite("Streaming cache: large bodies in files beside the store")
struct StreamingCacheTests {
    let url = URL(string: "http://example.test/large")!

    /// Serves `body` in 4 KiB chunks with ETag `etag`, 304 for a matching If-None-Match.
    static func server(_ body: ServedBody) -> FakeTransport {
        FakeTransport { request, _ in
            let (bytes, etag) = body.current
            if request.headers.contains(where: { $0.name == "If-None-Match" && $0.value == etag }) {
                return FakeTransport.response(request.url, status: 304, headers: [("ETag", etag)], chunks: [])
            }
            let chunks = stride(from: 0, to: bytes.count, by: 4096).map { Array(bytes[$0..<min($0 + 4096, bytes.count)]) }
            return FakeTransport.response(request.url, headers: [("ETag", etag), ("Content-Length", "\(bytes.count)")], chunks: chunks)
        }
    }

    static func bodyFiles(_ cache: DownloadCache) throws -> [String] {
        guard let directory = cache.bodyDirectory, FileManager.default.fileExists(atPath: directory) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    @Test("a body over the inline limit is cached in a file (as it arrived, or decrypted); hits stream it back",
          arguments: [false, true])
    func largeBody(storeDecrypted: Bool) async throws {
        let scratch = try TestScratch.directory("download")
        let cache = try DownloadCache(directory: scratch.path, inlineLimit: 1024)
        defer { cache.close() }
        // XORDecryptor refuses plaintext byte 0xFF: stay below it.
        let plain = (0..<100_000).map { UInt8(($0 * 7) % 251) }
        let cipher = plain.map { $0 ^ 0x33 }
        let served = ServedBody(cipher, etag: "\"a\"")
        let transport = Self.server(served)
        let downloader = Downloader(transport: transport, configuration: .init(cache: cache))
        let request = DownloadRequest(url: url, decryptor: XORDecryptor(key: 0x33),
                                      cachePolicy: .enabled(storeDecrypted: storeDecrypted, revalidate: true))
        #expect(try await downloader.result(for: request).data == plain)
        let files = try Self.bodyFiles(cache)
        #expect(files.count == 1)
        let stored = try [UInt8](Data(contentsOf: URL(fileURLWithPath: cache.path(files[0]))))
        #expect(stored == (storeDecrypted ? plain : cipher))

        let revalidated = try await downloader.result(for: request)
        #expect(revalidated.source == .revalidated && revalidated.data == plain)
        var offline = request
        offline.cachePolicy = .enabled(storeDecrypted: storeDecrypted, revalidate: false)
        offline.destination = .file(scratch.appendingPathComponent("out.bin").path)
        let hit = try await downloader.result(for: offline)
        #expect(hit.source == .cache)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch.appendingPathComponent("out.bin").path))) == plain)

        // New content replaces the record; the old file goes with it.
        let newPlain = Array(plain.reversed())
        served.replace(newPlain.map { $0 ^ 0x33 }, etag: "\"b\"")
        #expect(try await downloader.result(for: request).data == newPlain)
        let replaced = try Self.bodyFiles(cache)
        #expect(replaced.count == 1 && replaced != files)

        try cache.removeAll()
        #expect(try Self.bodyFiles(cache).isEmpty)
        #expect(try cache.count() == 0)
    }

    @Test("a body within the inline limit stays in the store; a store with a crypt key keeps every body in the store")
    func inline() async throws {
        let scratch = try TestScratch.directory("download")
        let small = try DownloadCache(directory: scratch.appendingPathComponent("small").path, inlineLimit: 1024)
        let encrypted = try DownloadCache(directory: scratch.appendingPathComponent("encrypted").path, cryptKey: SecureBytes(Array("0123456789abcdef".utf8)), inlineLimit: 16)
        defer {
            small.close()
            encrypted.close()
        }
        #expect(encrypted.bodyDirectory == nil)
        for (cache, size) in [(small, 1000), (encrypted, 50_000)] {
            let body = (0..<size).map { UInt8(truncatingIfNeeded: $0) }
            let transport = Self.server(ServedBody(body, etag: "\"i\""))
            let downloader = Downloader(transport: transport, configuration: .init(cache: cache))
            let request = DownloadRequest(url: url, cachePolicy: .enabled(storeDecrypted: true, revalidate: false))
            #expect(try await downloader.result(for: request).data == body)
            #expect(try await downloader.result(for: request).source == .cache)
            #expect(try Self.bodyFiles(cache).isEmpty)
            #expect(transport.count == 1)
        }
    }

    @Test("a failed download leaves no body file; a record whose file is gone is a miss")
    func failuresAndMissingFiles() async throws {
        let scratch = try TestScratch.directory("download")
        let cache = try DownloadCache(directory: scratch.path, inlineLimit: 1024)
        defer { cache.close() }
        let body = [UInt8](repeating: 7, count: 20_000)
        let transport = Self.server(ServedBody(body, etag: "\"f\""))
        let downloader = Downloader(transport: transport, configuration: .init(cache: cache))
        var checked = DownloadRequest(url: url, cachePolicy: .enabled(storeDecrypted: false, revalidate: false))
        checked.expectedSHA256 = [UInt8](repeating: 0, count: 32)
        await #expect { try await downloader.result(for: checked) } throws: { ($0 as? DownloadError)?.code == .integrity }
        #expect(try Self.bodyFiles(cache).isEmpty)
        #expect(try cache.count() == 0)

        let request = DownloadRequest(url: url, cachePolicy: .enabled(storeDecrypted: false, revalidate: false))
        _ = try await downloader.result(for: request)
        let files = try Self.bodyFiles(cache)
        #expect(files.count == 1)
        unlink(cache.path(files[0]))
        let again = try await downloader.result(for: request)
        #expect(again.source == .network && again.data == body)
        #expect(transport.count == 3)
    }
}

extension DownloadCache {
    /// The path of a file in the body directory.
    func path(_ name: String) -> String { (bodyDirectory ?? "") + "/" + name }
}

/// The body a test server serves now, replaceable.
final class ServedBody: Sendable {
    private let state: Mutex<(bytes: [UInt8], etag: String)>
    init(_ bytes: [UInt8], etag: String) { state = Mutex((bytes, etag)) }
    var current: (bytes: [UInt8], etag: String) { state.withLock { $0 } }
    func replace(_ bytes: [UInt8], etag: String) { state.withLock { $0 = (bytes, etag) } }
}
