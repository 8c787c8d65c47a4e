import CofferErrors
import DownloadPipeline
import Foundation
import Synchronization
import Testing

/// A transport that answers from a closure and records what it was asked.
final class FakeTransport: HTTPTransport {
    typealias Handler = @Sendable (TransportRequest, Int) async throws -> TransportResponse
    private let handler: Handler
    private let recorded = Mutex<[TransportRequest]>([])
    private let live = Mutex((now: 0, most: 0))
    private let arrived = AwaitedCount()

    init(_ handler: @escaping Handler) { self.handler = handler }

    func start(_ request: TransportRequest) async throws -> TransportResponse {
        let index = recorded.withLock { $0.append(request); return $0.count - 1 }
        arrived.increment()
        live.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
        defer { live.withLock { $0.now -= 1 } }
        return try await handler(request, index)
    }

    func shutdown() async throws {}

    var requests: [TransportRequest] { recorded.withLock { $0 } }
    var count: Int { recorded.withLock { $0.count } }
    var mostAtOnce: Int { live.withLock { $0.most } }

    /// Returns once `count` requests have reached the transport.
    func waitForRequests(_ count: Int) async { await arrived.wait(atLeast: count) }

    static func response(_ url: URL, status: Int = 200, headers: [(name: String, value: String)] = [], chunks: [[UInt8]]) -> TransportResponse {
        TransportResponse(head: DownloadResponse(url: url, status: status, headers: headers), body: TransportBody(chunks: chunks))
    }
}

/// XOR with a one-byte key, chunk by chunk: records the chunk sizes it saw.
struct XORDecryptor: StreamingDecryptor {
    let key: UInt8
    var identity: String { "xor:\(key)" }

    func decrypt(_ data: [UInt8], response: DownloadResponse) async throws -> [UInt8] { data.map { $0 ^ key } }

    func makeStream(response: DownloadResponse) throws -> any DecryptionStream { Stream(key: key) }

    final class Stream: DecryptionStream {
        let key: UInt8
        let seen = Mutex(0)
        init(key: UInt8) { self.key = key }
        func update(_ chunk: ArraySlice<UInt8>) throws -> [UInt8] {
            guard !chunk.contains(0xFF ^ key) else { throw DecryptionError(.tampered, "byte 0xFF is forbidden") }
            seen.withLock { $0 += chunk.count }
            return chunk.map { $0 ^ key }
        }
        func finish() throws -> [UInt8] { [] }
    }
}

/// A whole-body decryptor: reverses the bytes; rejects bodies starting with 0x00.
struct ReverseDecryptor: Decryptor {
    var identity: String { "reverse" }
    func decrypt(_ data: [UInt8], response: DownloadResponse) async throws -> [UInt8] {
        guard data.first != 0 else { throw DecryptionError(.malformedPayload, "starts with zero", offset: 0) }
        return data.reversed()
    }
}


/// A thread-safe counter that tests can wait on.
final class Counter: Sendable {
    private let value = AwaitedCount()
    func add() { value.increment() }
    var count: Int { value.value }
    /// Returns once the count is at least `target`.
    func wait(atLeast target: Int) async { await value.wait(atLeast: target) }
}

/// A one-shot gate that transports wait on: waiters suspend on continuations until ``open()``;
/// a cancelled waiter throws `CancellationError` at once.
final class Gate: Sendable {
    private struct State {
        var opened = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    }

    private let state = Mutex(State())

    func open() {
        let waiters = state.withLock { state in
            state.opened = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if state.opened { return .success(()) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(throwing: CancellationError())
        }
    }
}

@Suite("Downloader stages with a fake transport")
struct DownloaderTests {
    let url = URL(string: "http://example.test/payload")!

    @Test("the body passes through when there is no decryptor; Content-Length is checked")
    func passthrough() async throws {
        let transport = FakeTransport { request, _ in
            FakeTransport.response(request.url, headers: [("Content-Length", "6")], chunks: [[1, 2, 3], [4, 5, 6]])
        }
        let downloader = Downloader(transport: transport)
        let result = try await downloader.result(for: DownloadRequest(url: url))
        #expect(result.data == [1, 2, 3, 4, 5, 6])
        #expect(result.bytesReceived == 6)
        #expect(result.source == .network)
        #expect(transport.requests.first?.method == "GET")
    }

    @Test("a streaming decryptor sees the chunks as they arrive")
    func streaming() async throws {
        let plain: [UInt8] = Array(0..<200).map { UInt8($0) }
        let cipher = plain.map { $0 ^ 0x5A }
        let transport = FakeTransport { request, _ in
            FakeTransport.response(request.url, chunks: [Array(cipher[0..<50]), Array(cipher[50..<120]), Array(cipher[120...])])
        }
        let downloader = Downloader(transport: transport)
        let result = try await downloader.result(for: DownloadRequest(url: url, decryptor: XORDecryptor(key: 0x5A)))
        #expect(result.data == plain)
    }

    @Test("a whole-body decryptor gets the whole body and the response")
    func wholeBody() async throws {
        let transport = FakeTransport { request, _ in FakeTransport.response(request.url, chunks: [[1, 2], [3]]) }
        let downloader = Downloader(transport: transport, configuration: .init(decryptor: ReverseDecryptor()))
        let result = try await downloader.result(for: DownloadRequest(url: url))
        #expect(result.data == [3, 2, 1])
    }

    @Test("errors: bad status, truncated, longer than announced, invalid URL")
    func validation() async throws {
        let transport = FakeTransport { request, _ in
            switch request.url.path {
            case "/missing": FakeTransport.response(request.url, status: 404, chunks: [[0x6E]])
            case "/short": FakeTransport.response(request.url, headers: [("Content-Length", "10")], chunks: [[1, 2, 3]])
            default: FakeTransport.response(request.url, headers: [("Content-Length", "2")], chunks: [[1, 2, 3]])
            }
        }
        let downloader = Downloader(transport: transport)
        await #expect { try await downloader.result(for: DownloadRequest(url: URL(string: "http://h.test/missing")!)) } throws: {
            ($0 as? DownloadError)?.code == .badStatus && ($0 as? DownloadError)?.status == 404
        }
        await #expect { try await downloader.result(for: DownloadRequest(url: URL(string: "http://h.test/short")!)) } throws: {
            let error = $0 as? DownloadError
            return error?.code == .truncated && error?.expectedLength == 10 && error?.receivedLength == 3
        }
        await #expect { try await downloader.result(for: DownloadRequest(url: URL(string: "http://h.test/long")!)) } throws: {
            ($0 as? DownloadError)?.code == .lengthMismatch
        }
        await #expect { try await downloader.result(for: DownloadRequest(url: URL(string: "ftp://h.test/x")!)) } throws: {
            ($0 as? DownloadError)?.code == .invalidURL
        }
        #expect(transport.count == 3)
    }

    @Test("the request modifier adds headers, cancels or rejects; a per-request modifier overrides")
    func requestModifier() async throws {
        let transport = FakeTransport { request, _ in FakeTransport.response(request.url, chunks: [[7]]) }
        let configuration = Downloader.Configuration(requestModifier: { request in
            var request = request
            if request.url.path == "/cancel" { return nil }
            if request.url.path == "/reject" { throw TestServerError("no") }
            request.setHeader("Authorization", "Bearer token-1")
            return request
        })
        let downloader = Downloader(transport: transport, configuration: configuration)
        _ = try await downloader.result(for: DownloadRequest(url: url))
        #expect(transport.requests.last?.headers.contains { $0.name == "Authorization" && $0.value == "Bearer token-1" } == true)

        var custom = DownloadRequest(url: url)
        custom.requestModifier = { request in
            var request = request
            request.setHeader("X-Token", "2")
            return request
        }
        _ = try await downloader.result(for: custom)
        #expect(transport.requests.last?.headers.contains { $0.name == "X-Token" } == true)
        #expect(transport.requests.last?.headers.contains { $0.name == "Authorization" } == false)

        await #expect { try await downloader.result(for: DownloadRequest(url: URL(string: "http://h.test/cancel")!)) } throws: {
            ($0 as? DownloadError)?.code == .cancelled
        }
        await #expect { try await downloader.result(for: DownloadRequest(url: URL(string: "http://h.test/reject")!)) } throws: {
            ($0 as? DownloadError)?.code == .rejected
        }
        #expect(transport.count == 2)
    }

    @Test("the response modifier runs before validation: it can accept a 500 or reject a 200")
    func responseModifier() async throws {
        let transport = FakeTransport { request, _ in
            FakeTransport.response(request.url, status: request.url.path == "/error" ? 500 : 200, chunks: [[9]])
        }
        let downloader = Downloader(transport: transport)
        var request = DownloadRequest(url: URL(string: "http://h.test/error")!)
        request.responseModifier = ResponseModifier(identity: "accept-500") { response in
            var response = response
            if response.status == 500 { response.status = 200 }
            return response
        }
        #expect(try await downloader.result(for: request).data == [9])

        var rejecting = DownloadRequest(url: url)
        rejecting.responseModifier = ResponseModifier(identity: "reject") { _ in throw TestServerError("unwanted") }
        await #expect { try await downloader.result(for: rejecting) } throws: { ($0 as? DownloadError)?.code == .rejected }
    }

    @Test("a decryption failure is reported and does not mark the URL as bad")
    func decryptionFailureIsNotRemembered() async throws {
        let transport = FakeTransport { request, _ in FakeTransport.response(request.url, chunks: [[0xFF ^ 0x11, 1]]) }
        let downloader = Downloader(transport: transport)
        await #expect { try await downloader.result(for: DownloadRequest(url: url, decryptor: XORDecryptor(key: 0x11))) } throws: {
            let error = $0 as? DownloadError
            return error?.code == .decryptionFailed && error?.decryptionError?.code == .tampered
        }
        let result = try await downloader.result(for: DownloadRequest(url: url, decryptor: XORDecryptor(key: 0x22)))
        #expect(result.data == [0xFF ^ 0x11 ^ 0x22, 1 ^ 0x22])
        #expect(transport.count == 2)
    }

    @Test("the total timeout fires on a transfer that never ends, and stops the transport", .timeLimit(.minutes(2)))
    func totalTimeout() async throws {
        let stopped = AwaitedCount()
        let transport = FakeTransport { request, _ in
            // An hour: only the timeout's cancellation ends this within the test's time limit.
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                stopped.increment()
                throw error
            }
            return FakeTransport.response(request.url, chunks: [])
        }
        let downloader = Downloader(transport: transport, configuration: .init(totalTimeout: .milliseconds(200)))
        await #expect { try await downloader.result(for: DownloadRequest(url: url)) } throws: {
            let error = $0 as? DownloadError
            return error?.code == .timeout && error?.timeoutKind == .total
        }
        // The transport's wait was cancelled, not left running.
        await stopped.wait(atLeast: 1)
        #expect(stopped.value == 1)
    }

    @Test("progress is reported per caller, growing, with a final report; the interval throttles it", arguments: [false, true])
    func progress(throttled: Bool) async throws {
        let chunks = (0..<20).map { _ in [UInt8](repeating: 1, count: 100) }
        let transport = FakeTransport { request, _ in
            FakeTransport.response(request.url, headers: [("Content-Length", "2000")], chunks: chunks)
        }
        // An hour between reports: only the first and the final one get through. Zero: every chunk.
        let interval: Duration = throttled ? .seconds(3600) : .zero
        let downloader = Downloader(transport: transport, configuration: .init(progressInterval: interval))
        let reports = Mutex<[DownloadProgress]>([])
        let request = DownloadRequest(url: url, progress: { progress in reports.withLock { $0.append(progress) } })
        _ = try await downloader.result(for: request)
        let seen = reports.withLock { $0 }
        #expect(seen.count == (throttled ? 2 : 21))
        #expect(seen.first?.received == 100)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.received <= $1.received })
        #expect(seen.last?.isFinal == true)
        #expect(seen.last?.received == 2000)
        #expect(seen.last?.expected == 2000)
    }
}
