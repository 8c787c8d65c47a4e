import DownloadPipeline
import Foundation
import Synchronization
import Testing

@Suite("Downloader coalescing, cancellation and scheduling with a fake transport")
struct DownloaderCoalescingTests {
    let url = URL(string: "http://example.test/shared")!

    /// A transport whose responses wait for `gate`; records cancellations.
    static func gated(_ gate: Gate, cancelled: Counter? = nil) -> FakeTransport {
        FakeTransport { request, _ in
            do {
                try await gate.wait()
            } catch {
                cancelled?.add()
                throw error
            }
            return FakeTransport.response(request.url, chunks: [Array(request.url.path.utf8)])
        }
    }

    @Test("identical requests in flight share one transfer")
    func coalesce() async throws {
        let gate = Gate()
        let transport = Self.gated(gate)
        let downloader = Downloader(transport: transport)
        let tasks = (0..<20).map { _ in downloader.download(DownloadRequest(url: url, headers: [("Accept", "*/*")])) }
        await transport.waitForRequests(1)
        gate.open()
        for task in tasks {
            #expect(try await task.value.data == Array("/shared".utf8))
        }
        #expect(transport.count == 1)
    }

    @Test("identity: decryptor, content headers and method separate requests; ignored headers and header order do not")
    func identity() {
        let base = DownloadRequest(url: URL(string: "HTTP://Example.TEST:80/a#frag")!, headers: [("Accept", "x"), ("Authorization", "a")])
        let same = DownloadRequest(url: URL(string: "http://example.test/a")!,
                                   headers: [("authorization", "a"), ("User-Agent", "other"), ("accept", "x")])
        let key = RequestIdentity(request: base, decryptor: XORDecryptor(key: 1), responseModifier: nil)
        #expect(key == RequestIdentity(request: same, decryptor: XORDecryptor(key: 1), responseModifier: nil))
        #expect(key != RequestIdentity(request: same, decryptor: XORDecryptor(key: 2), responseModifier: nil))
        #expect(key != RequestIdentity(request: same, decryptor: nil, responseModifier: nil))
        var otherToken = same
        otherToken.setHeader("Authorization", "b")
        #expect(key != RequestIdentity(request: otherToken, decryptor: XORDecryptor(key: 1), responseModifier: nil))
        var cookie = same
        cookie.headers.append(("Cookie", "c=1"))
        #expect(key != RequestIdentity(request: cookie, decryptor: XORDecryptor(key: 1), responseModifier: nil))
        var head = same
        head.method = "HEAD"
        #expect(key != RequestIdentity(request: head, decryptor: XORDecryptor(key: 1), responseModifier: nil))
        let modified = RequestIdentity(request: same, decryptor: XORDecryptor(key: 1), responseModifier: ResponseModifier(identity: "m") { $0 })
        #expect(key != modified)
        #expect(!key.contentKey.contains("other"))
    }

    @Test("requests with different decryptors get their own transfers and results")
    func differentDecryptors() async throws {
        let gate = Gate()
        let transport = Self.gated(gate)
        let downloader = Downloader(transport: transport)
        let first = downloader.download(DownloadRequest(url: url, decryptor: XORDecryptor(key: 1)))
        let second = downloader.download(DownloadRequest(url: url, decryptor: XORDecryptor(key: 2)))
        await transport.waitForRequests(2)
        gate.open()
        #expect(try await first.value.data == Array("/shared".utf8).map { $0 ^ 1 })
        #expect(try await second.value.data == Array("/shared".utf8).map { $0 ^ 2 })
    }

    @Test("cancelling one of two callers detaches it; the other still gets the result")
    func cancelOne() async throws {
        let gate = Gate()
        let cancelled = Counter()
        let transport = Self.gated(gate, cancelled: cancelled)
        let downloader = Downloader(transport: transport)
        let first = downloader.download(DownloadRequest(url: url))
        let second = downloader.download(DownloadRequest(url: url))
        await transport.waitForRequests(1)
        first.cancel()
        await #expect { try await first.value } throws: { ($0 as? DownloadError)?.code == .cancelled }
        gate.open()
        #expect(try await second.value.data == Array("/shared".utf8))
        #expect(cancelled.count == 0)
        #expect(transport.count == 1)
    }

    @Test("cancelling every caller cancels the transfer; a new request starts a fresh one")
    func cancelAll() async throws {
        let gate = Gate()
        let cancelled = Counter()
        let transport = Self.gated(gate, cancelled: cancelled)
        let watcher = StopWatcher()
        let downloader = Downloader(transport: transport, configuration: .init(accessories: [watcher]))
        let first = downloader.download(DownloadRequest(url: url))
        let second = downloader.download(DownloadRequest(url: url))
        await transport.waitForRequests(1)
        first.cancel()
        second.cancel()
        await cancelled.wait(atLeast: 1)
        await watcher.stops.wait(atLeast: 1)
        #expect(downloader.runningTransfers == 0)
        await #expect { try await second.value } throws: { ($0 as? DownloadError)?.code == .cancelled }
        let third = downloader.download(DownloadRequest(url: url))
        await transport.waitForRequests(2)
        gate.open()
        #expect(try await third.value.data == Array("/shared".utf8))
    }

    @Test("cancelling the awaiting Swift task cancels that caller")
    func taskCancellation() async throws {
        let gate = Gate()
        let cancelled = Counter()
        let transport = Self.gated(gate, cancelled: cancelled)
        let downloader = Downloader(transport: transport)
        let waiter = Task { try await downloader.result(for: DownloadRequest(url: url)) }
        await transport.waitForRequests(1)
        waiter.cancel()
        let outcome = await waiter.result
        #expect(throws: DownloadError.self) { try outcome.get() }
        await cancelled.wait(atLeast: 1)
    }

    @Test("no more than the maximum transfers run at once", arguments: [1, 3])
    func concurrencyLimit(limit: Int) async throws {
        let gate = Gate()
        let transport = Self.gated(gate)
        let downloader = Downloader(transport: transport, configuration: .init(maximumConcurrentTransfers: limit))
        let events = downloader.eventStream()
        let tasks = (0..<9).map { downloader.download(DownloadRequest(url: URL(string: "http://h.test/\($0)")!)) }
        // Every transfer beyond the limit announces that it waits; then the limit is in flight.
        var queued = 0
        for await event in events where event.name == "queued" {
            queued += 1
            if queued == 9 - limit { break }
        }
        await transport.waitForRequests(limit)
        #expect(transport.count == limit)
        #expect(downloader.pendingTransfers == 9 - limit)
        gate.open()
        for task in tasks { _ = try await task.value }
        #expect(transport.count == 9)
        #expect(transport.mostAtOnce == limit)
    }

    @Test("waiting transfers start oldest first (FIFO) or newest first (LIFO)", arguments: [Downloader.SchedulingOrder.fifo, .lifo])
    func order(order: Downloader.SchedulingOrder) async throws {
        let gate = Gate()
        let transport = FakeTransport { request, index in
            if index == 0 { try await gate.wait() }
            return FakeTransport.response(request.url, chunks: [[1]])
        }
        let downloader = Downloader(transport: transport, configuration: .init(maximumConcurrentTransfers: 1, order: order))
        let events = downloader.eventStream()
        var queued = events.filter { $0.name == "queued" }.makeAsyncIterator()
        let blocker = downloader.download(DownloadRequest(url: URL(string: "http://h.test/blocker")!))
        await transport.waitForRequests(1)
        var tasks: [DownloadTask] = []
        for name in ["a", "b", "c"] {
            tasks.append(downloader.download(DownloadRequest(url: URL(string: "http://h.test/\(name)")!)))
            // The scheduler announces the transfer waiting before the next one is made.
            let event = await queued.next()
            #expect(event?.url == "http://h.test/\(name)")
        }
        #expect(downloader.pendingTransfers == 3)
        gate.open()
        _ = try await blocker.value
        for task in tasks { _ = try await task.value }
        let started = transport.requests.dropFirst().map { $0.url.lastPathComponent }
        #expect(started == (order == .fifo ? ["a", "b", "c"] : ["c", "b", "a"]))
    }
}
