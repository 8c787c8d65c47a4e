import ASN1Kit
import AsymmetricKeys
import CofferTestSupport
import CryptoOpenSSL
import DownloadPipeline
import Foundation
import Synchronization
import Testing

/// Retries, resume, integrity, batch and chain against real servers on 127.0.0.1 (Hummingbird,
/// and the raw-socket server for cut connections). Backoff waits are recorded, never slept.
@Suite("Integration: retry, resume, integrity, batch and chain over loopback", .serialized, .timeLimit(.minutes(2)))
struct PipelineNetworkTests {
    static func sha256(_ bytes: [UInt8]) -> [UInt8] { Digest.hash(.sha256, bytes) }

    @Test("503 twice then 200: the third attempt succeeds", arguments: [nil, "1"] as [String?])
    func unavailableTwice(retryAfter: String?) async throws {
        let plain = OpenSSLPayloads.plaintext(5000, seed: 11)
        let sleeps = RecordedSleeps()
        try await IntegrationEnvironment.with(configuration: .init(totalTimeout: LoopbackTimeouts.total, retryPolicy: sleeps.policy(retries: 3))) { (env: IntegrationEnvironment) async throws in
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
        // Decided by the request, not the connection's index: a connection another test makes to a
        // port it no longer listens on (the refused-connection tests) can land on this server.
        let server = try TestServerRawSocket { head, _ in
            heads.withLock { $0.append(head) }
            if head.hasPrefix("GET /cut"), !head.contains("Range:") {
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
        let transport = NetworkTransport(configuration: .init(connectTimeout: LoopbackTimeouts.connect, idleReadTimeout: LoopbackTimeouts.idleRead))
        let scratch = try TestScratch.directory("download")
        let output = scratch.appendingPathComponent("resumed.bin").path
        let downloader = Downloader(transport: transport, configuration: .init(totalTimeout: LoopbackTimeouts.total, retryPolicy: RecordedSleeps().policy(retries: 2)))
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
        #expect(heads.withLock { $0.filter { $0.hasPrefix("GET /cut") }.count } == 2, "\(heads.withLock { $0 })")
        #expect(heads.withLock { $0.last?.contains("Range: bytes=\(half)-") } == true)
    }

    @Test("a digest mismatch leaves no file: neither the destination, nor a temporary or partial file")
    func digestMismatch() async throws {
        let plain = OpenSSLPayloads.plaintext(100_000, seed: 13)
        let scratch = try TestScratch.directory("download")
        try await IntegrationEnvironment.with { (env: IntegrationEnvironment) async throws in
            env.server.add("data", .init(bytes: plain, etag: "\"d1\"", chunkSize: 8192))
            let output = scratch.appendingPathComponent("out.bin").path
            var request = DownloadRequest(url: env.server.url("/files/data"), destination: .file(output), resumeFile: scratch.appendingPathComponent("out.part").path)
            var wrong = Self.sha256(plain)
            wrong[0] ^= 1
            request.expectedSHA256 = wrong
            await #expect { try await env.downloader.result(for: request) } throws: {
                let error = $0 as? DownloadError
                return error?.code == .integrity && error?.actualDigest == Hex.encode(Self.sha256(plain))
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
        try await IntegrationEnvironment.with(configuration: .init(totalTimeout: LoopbackTimeouts.total, accessories: [recorder])) { (env: IntegrationEnvironment) async throws in
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

    @Test("batch with one 404: fail-fast names it and cancels the rest; keep-going returns the others in order")
    func batchWithMissing() async throws {
        let payloads = (0..<3).map { OpenSSLPayloads.plaintext(2000, seed: 20 + $0) }
        let server = try TestServerRawSocket { head, _ in
            if head.hasPrefix("GET /missing") { return [.send(TestServerRawSocket.head(status: "404 Not Found", length: 0))] }
            if head.hasPrefix("GET /stall") { return [.stall] }
            let index = Int(head.dropFirst("GET /file".count).prefix(1)) ?? 0
            return [.send(TestServerRawSocket.head(length: payloads[index].count) + payloads[index])]
        }
        defer { server.stop() }
        let transport = NetworkTransport(configuration: .init(connectTimeout: LoopbackTimeouts.connect, idleReadTimeout: LoopbackTimeouts.idleRead))
        let downloader = Downloader(transport: transport, configuration: .init(totalTimeout: LoopbackTimeouts.total))
        let failFast = DownloadBatch(downloader: downloader,
                                     requests: ["/stall0", "/missing", "/stall2"].map { DownloadRequest(url: server.url($0)) },
                                     maximumConcurrent: 3, policy: .failFast)
        let keepGoing = DownloadBatch(downloader: downloader,
                                      requests: ["/file0", "/missing", "/file2"].map { DownloadRequest(url: server.url($0)) },
                                      maximumConcurrent: 2, policy: .collectAll)
        var failFastError: DownloadBatchError?
        do {
            _ = try await failFast.run()
        } catch {
            failFastError = error
        }
        let all = try? await keepGoing.run()
        try await transport.shutdown()

        let error = try #require(failFastError)
        #expect(error.index == 1)
        #expect(error.error.status == 404, "\(error.error)")
        #expect(error.results.count == 3)
        #expect(error.results[0].failure?.code == .cancelled)
        #expect(error.results[2].failure?.code == .cancelled)
        #expect(downloader.runningTransfers == 0)

        let results = try #require(all)
        #expect(results.count == 3)
        #expect(results[0].failure == nil && results[2].failure == nil, "\(String(describing: results[0].failure)); \(String(describing: results[2].failure))")
        #expect((try? results[0].get().data) == payloads[0])
        #expect(results[1].failure?.status == 404)
        #expect((try? results[2].get().data) == payloads[2])
    }

    @Test("chain: the second URL comes from the first body; a failing step is named")
    func chain() async throws {
        let payload = OpenSSLPayloads.plaintext(3000, seed: 30)
        try await IntegrationEnvironment.with { (env: IntegrationEnvironment) async throws in
            env.server.add("payload", .init(bytes: payload))
            env.server.add("manifest", .init(bytes: Array("/files/payload\n".utf8)))
            env.server.add("bad-manifest", .init(bytes: Array("/files/nothing-here\n".utf8)))
            let port = env.server.port
            let next: DownloadChain.Next = { manifest in
                let path = String(decoding: manifest.data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                return DownloadRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            }
            let results = try await DownloadChain(downloader: env.downloader, first: DownloadRequest(url: env.server.url("/files/manifest")), name: "manifest")
                .then("payload", next)
                .run()
            #expect(results.count == 2)
            #expect(results.last?.data == payload)

            let failing = DownloadChain(downloader: env.downloader, first: DownloadRequest(url: env.server.url("/files/bad-manifest")), name: "manifest")
                .then("payload", next)
            await #expect { try await failing.run() } throws: {
                let error = $0 as? DownloadChainError
                return error?.step == 1 && error?.name == "payload" && error?.error.status == 404 && error?.results.count == 1
            }
        }
    }
}
