import CofferTestSupport
import DownloadPipeline
import Foundation
import Synchronization
import Testing

/// A scratch directory removed at the end.
@Suite("Downloader cache, resume and file destination with a fake transport")
struct DownloaderCacheTests {
    let url = URL(string: "http://example.test/cached")!

    /// Serves `body` with ETag "v1", answering If-None-Match with 304 and Range with 206.
    static func server(_ body: [UInt8], etag: String = "\"v1\"") -> FakeTransport {
        FakeTransport { request, _ in
            let header = { (name: String) in request.headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
            if header("If-None-Match") == etag {
                return FakeTransport.response(request.url, status: 304, headers: [("ETag", etag)], chunks: [])
            }
            if let range = header("Range"), header("If-Range") == etag,
               let first = Int(range.dropFirst("bytes=".count).dropLast()) {
                return FakeTransport.response(request.url, status: 206,
                                              headers: [("ETag", etag), ("Content-Length", "\(body.count - first)"),
                                                        ("Content-Range", "bytes \(first)-\(body.count - 1)/\(body.count)")],
                                              chunks: [Array(body[first...])])
            }
            return FakeTransport.response(request.url, headers: [("ETag", etag), ("Content-Length", "\(body.count)")], chunks: [body])
        }
    }

    @Test("a cached result is revalidated with If-None-Match (304) or served without a request", arguments: [false, true])
    func cache(storeDecrypted: Bool) async throws {
        let scratch = try TestScratch.directory("download")
        let cache = try DownloadCache(directory: scratch.path)
        defer { cache.close() }
        let plain: [UInt8] = Array("cached payload".utf8)
        let transport = Self.server(plain.map { $0 ^ 0x33 })
        let downloader = Downloader(transport: transport, configuration: .init(cache: cache))
        let request = DownloadRequest(url: url, decryptor: XORDecryptor(key: 0x33),
                                      cachePolicy: .enabled(storeDecrypted: storeDecrypted, revalidate: true))
        let first = try await downloader.result(for: request)
        #expect(first.source == .network)
        #expect(first.data == plain)
        #expect(try cache.count() == 1)

        let second = try await downloader.result(for: request)
        #expect(second.source == .revalidated)
        #expect(second.data == plain)
        #expect(transport.requests.last?.headers.contains { $0.name == "If-None-Match" && $0.value == "\"v1\"" } == true)
        #expect(transport.count == 2)

        var offline = request
        offline.cachePolicy = .enabled(storeDecrypted: storeDecrypted, revalidate: false)
        let third = try await downloader.result(for: offline)
        #expect(third.source == .cache)
        #expect(third.data == plain)
        #expect(transport.count == 2)

        // Another decryptor is another identity: not served from this entry.
        let other = try await downloader.result(for: DownloadRequest(url: url, decryptor: XORDecryptor(key: 0x44),
                                                                    cachePolicy: .enabled(storeDecrypted: storeDecrypted, revalidate: false)))
        #expect(other.source == .network)
    }

    @Test("a partial file resumes with Range and If-Range; the result is whole")
    func resume() async throws {
        let scratch = try TestScratch.directory("download")
        let plain = (0..<1000).map { UInt8($0 % 200) }
        let transport = Self.server(plain.map { $0 ^ 0x42 })
        let partial = scratch.appendingPathComponent("payload.part").path
        try Data(plain[0..<400].map { $0 ^ 0x42 }).write(to: URL(fileURLWithPath: partial))
        try Data("coffer-resume 1\n\(url.absoluteString)\n\"v1\"\n".utf8).write(to: URL(fileURLWithPath: partial + ".resume"))
        let downloader = Downloader(transport: transport)
        let result = try await downloader.result(for: DownloadRequest(url: url, decryptor: XORDecryptor(key: 0x42), resumeFile: partial))
        #expect(result.source == .resumed)
        #expect(result.bytesReceived == 600)
        #expect(result.data == plain)
        #expect(result.response.status == 200)
        #expect(result.response.contentLength == 1000)
        let sent = try #require(transport.requests.last)
        #expect(sent.headers.contains { $0.name == "Range" && $0.value == "bytes=400-" })
        #expect(sent.headers.contains { $0.name == "If-Range" && $0.value == "\"v1\"" })
        #expect(!FileManager.default.fileExists(atPath: partial))
        #expect(!FileManager.default.fileExists(atPath: partial + ".resume"))
    }

    @Test("a changed resource (200 instead of 206) restarts cleanly")
    func changedResource() async throws {
        let scratch = try TestScratch.directory("download")
        let plain = Array("the new version of the resource".utf8)
        let transport = Self.server(plain, etag: "\"v2\"")
        let partial = scratch.appendingPathComponent("payload.part").path
        try Data("OLD-OLD-OLD".utf8).write(to: URL(fileURLWithPath: partial))
        try Data("coffer-resume 1\n\(url.absoluteString)\n\"v1\"\n".utf8).write(to: URL(fileURLWithPath: partial + ".resume"))
        let downloader = Downloader(transport: transport)
        let result = try await downloader.result(for: DownloadRequest(url: url, resumeFile: partial))
        #expect(result.source == .network)
        #expect(result.data == plain)
    }

    @Test("a file destination is written through a temporary file; a failure leaves none")
    func fileDestination() async throws {
        let scratch = try TestScratch.directory("download")
        let body = [UInt8](repeating: 0x61, count: 5000)
        let transport = Self.server(body)
        let downloader = Downloader(transport: transport)
        let output = scratch.appendingPathComponent("out.bin").path
        let result = try await downloader.result(for: DownloadRequest(url: url, destination: .file(output)))
        #expect(result.data.isEmpty)
        #expect(result.filePath == output)
        #expect(result.resultLength == 5000)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: output))) == body)

        let failing = FakeTransport { request, _ in
            FakeTransport.response(request.url, headers: [("Content-Length", "100")], chunks: [[1, 2, 3]])
        }
        let other = scratch.appendingPathComponent("failed.bin").path
        await #expect(throws: DownloadError.self) {
            try await Downloader(transport: failing).result(for: DownloadRequest(url: url, destination: .file(other)))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["out.bin"])
    }
}
