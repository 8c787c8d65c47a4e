import DownloadPipeline
import Foundation
import Synchronization
import Testing

@Suite("Batch and chain with test transports")
struct BatchChainTests {
    static func requests(_ paths: [String]) -> [DownloadRequest] {
        paths.map { DownloadRequest(url: URL(string: "http://batch.test\($0)")!) }
    }

    @Test("collectAll keeps the concurrency cap and returns every result in request order, with aggregate progress")
    func collectAllInOrder() async throws {
        let transport = HeldTransport()
        let downloader = Downloader(transport: transport)
        let reports = Mutex<[BatchProgress]>([])
        let paths = ["/a", "/bb", "/missing", "/dddd", "/eeeee"]
        let batch = DownloadBatch(downloader: downloader, requests: Self.requests(paths), maximumConcurrent: 2, policy: .collectAll,
                                  progress: { report in reports.withLock { $0.append(report) } })
        let running = Task { try await batch.run() }
        var arrived = 0
        for await _ in transport.arrivals {
            arrived += 1
            // Each arrival lets the oldest held request answer.
            transport.releaseOldest()
            if arrived == paths.count { break }
        }
        let results = try await running.value
        #expect(results.count == 5)
        for (index, path) in paths.enumerated() where path != "/missing" {
            #expect((try? results[index].get().data) == Array(path.utf8))
        }
        #expect(results[2].failure?.status == 404)
        #expect(transport.mostAtOnce <= 2)
        let last = try #require(reports.withLock { $0.max { ($0.succeeded + $0.failed) < ($1.succeeded + $1.failed) } })
        #expect(last.isFinished && last.succeeded == 4 && last.failed == 1 && last.total == 5)
        #expect(last.bytesReceived == paths.filter { $0 != "/missing" }.reduce(0) { $0 + $1.utf8.count })
    }

    @Test("failFast: the first failure names the request and cancels the others, running or not started")
    func failFast() async throws {
        let transport = HeldTransport()
        let downloader = Downloader(transport: transport)
        let batch = DownloadBatch(downloader: downloader, requests: Self.requests(["/one", "/missing", "/three", "/four"]),
                                  maximumConcurrent: 3, policy: .failFast)
        let running = Task { try await batch.run() }
        var arrived: [String] = []
        for await path in transport.arrivals {
            arrived.append(path)
            if arrived.count == 3 { break }
        }
        // "/one" succeeds, then "/missing" fails; "/three" (and "/four", if it started) stay held.
        #expect(transport.release(path: "/one"))
        #expect(transport.release(path: "/missing"))
        let outcome = await running.result
        guard case .failure(let failure) = outcome, let error = failure as? DownloadBatchError else {
            Issue.record("the batch did not fail with a DownloadBatchError")
            return
        }
        #expect(error.index == 1)
        #expect(error.url == "http://batch.test/missing")
        #expect(error.error.status == 404)
        #expect(error.description.contains("request 2"))
        #expect(error.results[2].failure?.code == .cancelled)
        #expect(error.results[3].failure?.code == .cancelled)
        #expect(Set(arrived) == ["/one", "/missing", "/three"])
    }

    @Test("cancelling the batch's task cancels every request through its token")
    func cancelBatch() async throws {
        let transport = HeldTransport()
        let downloader = Downloader(transport: transport)
        let batch = DownloadBatch(downloader: downloader, requests: Self.requests(["/x", "/y"]), maximumConcurrent: 2)
        let running = Task { try await batch.run() }
        var arrived = 0
        for await _ in transport.arrivals {
            arrived += 1
            if arrived == 2 { break }
        }
        running.cancel()
        let results = try await running.value
        #expect(results.allSatisfy { $0.failure?.code == .cancelled })
    }

    @Test("chain: each step gets the previous result; nil finishes early; a throwing step is named")
    func chainSteps() async throws {
        let transport = FakeTransport { request, _ in
            FakeTransport.response(request.url, chunks: [Array(request.url.lastPathComponent.utf8)])
        }
        let downloader = Downloader(transport: transport)
        let seen = Mutex<[String]>([])
        let chain = DownloadChain(downloader: downloader, first: DownloadRequest(url: URL(string: "http://chain.test/2")!))
            .then("double") { previous in
                let value = Int(String(decoding: previous.data, as: UTF8.self)) ?? 0
                seen.withLock { $0.append("double:\(value)") }
                return DownloadRequest(url: URL(string: "http://chain.test/\(value * 2)")!)
            }
            .then("stop") { previous in
                seen.withLock { $0.append("stop:\(String(decoding: previous.data, as: UTF8.self))") }
                return nil
            }
            .then("never") { _ in
                seen.withLock { $0.append("never") }
                return nil
            }
        let results = try await chain.run()
        #expect(results.map { String(decoding: $0.data, as: UTF8.self) } == ["2", "4"])
        #expect(seen.withLock { $0 } == ["double:2", "stop:4"])

        let throwing = DownloadChain(downloader: downloader, first: DownloadRequest(url: URL(string: "http://chain.test/1")!))
            .then("parse") { _ in throw TestServerError("no URL in the body") }
        await #expect { try await throwing.run() } throws: {
            let error = $0 as? DownloadChainError
            return error?.step == 1 && error?.name == "parse" && error?.error.code == .rejected && error?.results.count == 1
                && error?.description.contains("parse") == true
        }
    }
}
