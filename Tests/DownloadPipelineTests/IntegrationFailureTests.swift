import CofferTestSupport
import DownloadPipeline
import Foundation
import Synchronization
import Testing

/// Misbehaving servers (raw sockets on 127.0.0.1): every failure is its own error, and nothing
/// hangs past its timeout.
@Suite("Integration: broken, slow and dead servers", .serialized, .timeLimit(.minutes(1)))
struct IntegrationFailureTests {
    @discardableResult
    static func withDownloader<T>(idleRead: Duration = .seconds(5), total: Duration = .seconds(20),
                                  _ body: (Downloader) async throws -> T) async throws -> T {
        let transport = NetworkTransport(configuration: .init(connectTimeout: .seconds(2), idleReadTimeout: idleRead))
        let downloader = Downloader(transport: transport, configuration: .init(totalTimeout: total))
        do {
            let result = try await body(downloader)
            try await transport.shutdown()
            return result
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    @Test("a body shorter than its Content-Length is truncated, with both lengths")
    func shortBody() async throws {
        let server = try TestServerRawSocket { _, _ in
            [.send(TestServerRawSocket.head(length: 1000) + [UInt8](repeating: 7, count: 400)), .close]
        }
        defer { server.stop() }
        try await Self.withDownloader { downloader in
            await #expect { try await downloader.result(for: DownloadRequest(url: server.url("/short"))) } throws: {
                let error = $0 as? DownloadError
                // The client may drop bytes still buffered when the end of stream arrives.
                return error?.code == .truncated && error?.expectedLength == 1000 && (error?.receivedLength ?? -1) <= 400
            }
        }
    }

    /// A POST to a server that answers 413 and closes as soon as it has the request's head, while
    /// the request's one body chunk comes only `bodyAfter` later: the 413 must be read.
    static func expectEarly413(bodyAfter delay: Duration, idleRead: Duration = .seconds(5)) async throws {
        let server = try TestServerRawSocket { _, _ in
            [.send(TestServerRawSocket.head(status: "413 Payload Too Large", length: 0)), .close]
        }
        defer { server.stop() }
        let late = AsyncStream<[UInt8]> { continuation in
            Task {
                try? await Task.sleep(for: delay)
                continuation.yield([UInt8](repeating: 1, count: 1000))
                continuation.finish()
            }
        }
        var request = DownloadRequest(url: server.url("/upload"))
        request.method = "POST"
        request.body = .stream(length: nil, TransportBody(late))
        try await withDownloader(idleRead: idleRead) { downloader in
            do {
                _ = try await downloader.result(for: request)
                Issue.record("the 413 was taken for a success")
            } catch let error as DownloadError {
                #expect(error.code == .badStatus && error.status == 413, "\(error); cause: \(error.cause.map { String(describing: $0) } ?? "none")")
            }
        }
    }

    @Test("a server that answers 413 and closes before the request body is sent: the 413 is read, as curl reads it")
    func answerBeforeBody() async throws {
        // The body's chunk comes after the answer and the close: its write fails.
        try await Self.expectEarly413(bodyAfter: .milliseconds(300))
    }

    /// What a loaded machine does to a client (CI, where every test stalled for minutes): the task
    /// that sends the request and then asks for the answer is held up longer than the idle-read
    /// timeout, while the answer already waits in the socket. The timeout is the peer's silence,
    /// not the client's: the answer is read.
    @Test("an answer that waited while the client was held up past the idle-read timeout is read, not a timeout")
    func answerWaitingPastIdleTimeout() async throws {
        try await Self.expectEarly413(bodyAfter: .milliseconds(1_500), idleRead: .seconds(1))
    }

    @Test("a connection reset mid-body is a transport error that says how far it got")
    func resetMidBody() async throws {
        let server = try TestServerRawSocket { _, _ in
            [.send(TestServerRawSocket.head(length: 100_000) + [UInt8](repeating: 7, count: 3000)), .pause(.milliseconds(50)), .reset]
        }
        defer { server.stop() }
        try await Self.withDownloader { downloader in
            await #expect { try await downloader.result(for: DownloadRequest(url: server.url("/reset"))) } throws: {
                let error = $0 as? DownloadError
                return error?.code == .transport && error?.expectedLength == 100_000 && (error?.receivedLength ?? 0) <= 3000
            }
        }
    }

    // The stalling tests give the transfer a total timeout longer than the suite's time limit:
    // only the idle-read timeout can end them in time, and the error says it was that one.

    @Test("a server that stalls after the head hits the idle-read timeout")
    func stallAfterHead() async throws {
        let server = try TestServerRawSocket { _, _ in
            [.send(TestServerRawSocket.head(length: 1000) + [1, 2, 3]), .stall]
        }
        defer { server.stop() }
        try await Self.withDownloader(idleRead: .milliseconds(300), total: .seconds(3600)) { downloader in
            await #expect { try await downloader.result(for: DownloadRequest(url: server.url("/stall"))) } throws: {
                let error = $0 as? DownloadError
                return error?.code == .timeout && error?.timeoutKind == .idleRead
            }
        }
    }

    @Test("a server that never answers hits the idle-read timeout")
    func stallBeforeHead() async throws {
        let server = try TestServerRawSocket { _, _ in [.stall] }
        defer { server.stop() }
        try await Self.withDownloader(idleRead: .milliseconds(300), total: .seconds(3600)) { downloader in
            await #expect { try await downloader.result(for: DownloadRequest(url: server.url("/silent"))) } throws: {
                let error = $0 as? DownloadError
                return error?.code == .timeout && error?.timeoutKind == .idleRead
            }
        }
    }

    @Test("a trickling server hits the total timeout")
    func trickle() async throws {
        let server = try TestServerRawSocket { _, _ in
            [.send(TestServerRawSocket.head(length: 10_000))] + (0..<200).flatMap { _ in [TestServerRawSocket.Step.send([1]), .pause(.milliseconds(20))] }
        }
        defer { server.stop() }
        try await Self.withDownloader(idleRead: .seconds(2), total: .milliseconds(400)) { downloader in
            await #expect { try await downloader.result(for: DownloadRequest(url: server.url("/trickle"))) } throws: {
                let error = $0 as? DownloadError
                return error?.code == .timeout && error?.timeoutKind == .total
            }
        }
    }

    @Test("a refused connection is a transport error")
    func refused() async throws {
        // Bind a port, then close it: nothing listens there any more.
        let server = try TestServerRawSocket { _, _ in [] }
        let port = server.port
        server.stop()
        await server.waitUntilClosed()
        try await Self.withDownloader { downloader in
            await #expect { try await downloader.result(for: DownloadRequest(url: URL(string: "http://127.0.0.1:\(port)/none")!)) } throws: {
                ($0 as? DownloadError)?.code == .transport
            }
        }
    }

    @Test("resume after the transfer is cut: Range + If-Range continue the partial file, the CMS payload decrypts")
    func resumeAfterCut() async throws {
        let plain = OpenSSLPayloads.plaintext(120_000, seed: 9)
        let payload = try await OpenSSLPayloads.cms(plain)
        let key = try OpenSSLPayloads.privateKey()
        let cut = 50_000
        let requests = Mutex<[String]>([])
        let server = try TestServerRawSocket { head, _ in
            requests.withLock { $0.append(head) }
            let lower = head.lowercased()
            if let rangeLine = lower.split(separator: "\r\n").first(where: { $0.hasPrefix("range: bytes=") }),
               lower.contains("if-range: \"etag-1\""),
               let first = Int(rangeLine.dropFirst("range: bytes=".count).dropLast()) {
                return [.send(TestServerRawSocket.head(status: "206 Partial Content", length: payload.count - first,
                                                       headers: ["ETag: \"etag-1\"", "Content-Range: bytes \(first)-\(payload.count - 1)/\(payload.count)"])
                              + payload[first...]), .close]
            }
            return [.send(TestServerRawSocket.head(length: payload.count, headers: ["ETag: \"etag-1\""]) + payload[0..<cut]),
                    .pause(.milliseconds(200)), .close]
        }
        defer { server.stop() }
        let scratch = try TestScratch.directory("download")
        let partial = scratch.appendingPathComponent("payload.part").path
        var keptCount = 0
        try await Self.withDownloader { downloader in
            let request = DownloadRequest(url: server.url("/payload"), decryptor: CMSDecryptor(key: key), resumeFile: partial)
            await #expect { try await downloader.result(for: request) } throws: { ($0 as? DownloadError)?.code == .truncated }
            #expect(FileManager.default.fileExists(atPath: partial))
            let kept = try [UInt8](Data(contentsOf: URL(fileURLWithPath: partial)))
            #expect(kept.count > 0 && kept.count <= cut)
            let isPrefix = kept[...] == payload[0..<kept.count]
            #expect(isPrefix)
            keptCount = kept.count

            let resumed = try await downloader.result(for: request)
            #expect(resumed.source == .resumed)
            #expect(resumed.bytesReceived == payload.count - keptCount)
            let decrypted = resumed.data == plain
            #expect(decrypted)
            #expect(!FileManager.default.fileExists(atPath: partial))
        }
        let seen = requests.withLock { $0 }
        #expect(seen.count == 2)
        #expect(seen.last?.lowercased().contains("range: bytes=\(keptCount)-") == true)
    }
}
