import ASN1Kit
import CofferTestSupport
import CryptoOpenSSL
import DownloadPipeline
import Foundation
import RSAKeys
import Synchronization
import Testing

/// Retries, resume and integrity against real servers on 127.0.0.1 (Hummingbird,
/// and the raw-socket server for cut connections). Backoff waits are recorded, never slept.
@Suite("Integration: retry, resume and integrity over loopback", .serialized, .timeLimit(.minutes(1)))
struct PipelineNetworkTests {
    static func sha256(_ bytes: [UInt8]) -> [UInt8] { Digest.hash(.sha256, bytes) }

    @Test("503 twice then 200: the third attempt succeeds", arguments: [nil, "1"] as [String?])
    func unavailableTwice(retryAfter: String?) async throws {
        let plain = OpenSSLPayloads.plaintext(5000, seed: 11)
        let sleeps = RecordedSleeps()
        try await IntegrationEnvironment.with(configuration: .init(totalTimeout: .seconds(20), retryPolicy: sleeps.policy(retries: 3))) { (env: IntegrationEnvironment) async throws in
            env.server.add("flaky", .init(bytes: plain, failures: 2, retryAfter: retryAfter))
            let result = try await env.downloader.result(for: DownloadRequest(url: env.server.url("/files/flaky")))
            #expect(result.data == plain)
            #expect(env.server.hits("flaky") == 3)
            let expected: [Duration] = retryAfter == nil ? [.milliseconds(100), .milliseconds(200)] : [.seconds(1), .seconds(1)]
            #expect(sleeps.recorded == expected)
        }
    }

    @Test("a body cut mid-way is resumed by the retry: the server sees Range / If-Range and the digest still checks")
    func cutThenResumed() async throws {
        let plain = OpenSSLPayloads.plaintext(40_000, seed: 12)
        let half = 15_000
        let heads = Mutex<[String]>([])
        let server = try TestServerRawSocket { head, index in
            heads.withLock { $0.append(head) }
            if index == 0 {
                return [.send(TestServerRawSocket.head(length: plain.count, headers: ["ETag: \"r1\""]) + plain[0..<half]), .close]
            }
            guard head.contains("Range: bytes=\(half)-"), head.contains("If-Range: \"r1\"") else {
                return [.send(TestServerRawSocket.head(status: "400 Bad Request", length: 0))]
            }
            let rest = Array(plain[half...])
            return [.send(TestServerRawSocket.head(status: "206 Partial Content", length: rest.count,
                                                   headers: ["ETag: \"r1\"", "Content-Range: bytes \(half)-\(plain.count - 1)/\(plain.count)"]) + rest)]
        }
        defer { server.stop() }
        let transport = AsyncHTTPClientTransport(configuration: .init(connectTimeout: .seconds(2), idleReadTimeout: .seconds(5)))
        let scratch = try ScratchDirectory()
        let output = scratch.file("resumed.bin")
        let downloader = Downloader(transport: transport, configuration: .init(totalTimeout: .seconds(20), retryPolicy: RecordedSleeps().policy(retries: 2)))
        var request = DownloadRequest(url: server.url("/cut"), destination: .file(output))
        request.expectedSHA256 = Self.sha256(plain)
        let result: DownloadResult
        do {
            result = try await downloader.result(for: request)
        } catch {
            try await transport.shutdown()
            throw error
        }
        try await transport.shutdown()
        #expect(result.source == .resumed)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: output))) == plain)
        #expect(server.connections == 2)
        #expect(heads.withLock { $0.last?.contains("Range: bytes=\(half)-") } == true)
    }

    @Test("a digest mismatch leaves no file: neither the destination, nor a temporary or partial file")
    func digestMismatch() async throws {
        let plain = OpenSSLPayloads.plaintext(100_000, seed: 13)
        let scratch = try ScratchDirectory()
        try await IntegrationEnvironment.with { (env: IntegrationEnvironment) async throws in
            env.server.add("data", .init(bytes: plain, etag: "\"d1\"", chunkSize: 8192))
            let output = scratch.file("out.bin")
            var request = DownloadRequest(url: env.server.url("/files/data"), destination: .file(output), resumeFile: scratch.file("out.part"))
            var wrong = Self.sha256(plain)
            wrong[0] ^= 1
            request.expectedSHA256 = wrong
            await #expect { try await env.downloader.result(for: request) } throws: {
                let error = $0 as? DownloadError
                return error?.code == .integrity && error?.actualDigest == Hex.encodeBytes(Self.sha256(plain))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
            request.expectedSHA256 = Self.sha256(plain)
            #expect(try await env.downloader.result(for: request).resultLength == plain.count)
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["out.bin"])
        }
    }

    @Test("the server's Content-Digest is checked: a wrong one fails, a right one passes with a verify event")
    func contentDigest() async throws {
        let plain = OpenSSLPayloads.plaintext(30_000, seed: 14)
        let recorder = EventRecorder()
        try await IntegrationEnvironment.with(configuration: .init(totalTimeout: .seconds(20), accessories: [recorder])) { (env: IntegrationEnvironment) async throws in
            let right = "sha-256=:\(Base64.encode(Self.sha256(plain))):"
            let wrong = "sha-256=:\(Base64.encode(Self.sha256(Array(plain.dropLast())))):"
            env.server.add("right", .init(bytes: plain, headers: ["Content-Digest": right]))
            env.server.add("wrong", .init(bytes: plain, headers: ["Content-Digest": "md5=:AAAA:, " + wrong]))
            #expect(try await env.downloader.result(for: DownloadRequest(url: env.server.url("/files/right"))).data == plain)
            await #expect { try await env.downloader.result(for: DownloadRequest(url: env.server.url("/files/wrong"))) } throws: {
                ($0 as? DownloadError)?.code == .integrity
            }
        }
        let verdicts = recorder.recorded.compactMap { event -> Bool? in
            if case .verify(let algorithm, let source, let passed) = event.kind, algorithm == "sha-256", source == "Content-Digest" { return passed }
            return nil
        }
        #expect(verdicts == [true, false])
    }
}
