import CofferErrors
import DownloadPipeline
import Foundation
import Synchronization
import Testing

@Suite("Retry policy")
struct RetryPolicyTests {
    static let retryable: [(DownloadError, Bool)] = [
        (.transport(url: nil, "reset"), true),
        (.connectionClosed(url: nil), true),
        (.timeout(url: nil, .connect), true),
        (.timeout(url: nil, .idleRead), true),
        (.timeout(url: nil, .total), false),
        (.truncated(url: nil, expected: 10, received: 4), true),
        (.badStatus(url: nil, 408), true),
        (.badStatus(url: nil, 429), true),
        (.badStatus(url: nil, 500), true),
        (.badStatus(url: nil, 503), true),
        (.badStatus(url: nil, 599), true),
        (.badStatus(url: nil, 400), false),
        (.badStatus(url: nil, 403), false),
        (.badStatus(url: nil, 404), false),
        (.decryptionFailed(url: nil, DecryptionError(.tampered, "bad tag")), false),
        (.integrity(url: nil, algorithm: "sha-256", source: "Content-Digest", expected: "00", actual: "11"), false),
        (.lengthMismatch(url: nil, expected: 1, received: 2), false),
        (.cancelled(url: nil), false),
        (.rejected(url: nil, "no"), false),
        (.file("/x", "cannot open"), false),
        (.invalidURL("ftp://x", "scheme"), false),
    ]

    @Test("only transport failures, connect/idle timeouts, cuts and 408/429/5xx are retried", arguments: retryable)
    func retryableErrors(error: DownloadError, expected: Bool) {
        #expect(RetryPolicy.isRetryable(error) == expected, "\(error.code) \(error.status ?? 0)")
    }

    @Test("the backoff bound doubles from the initial delay and stops at the maximum; full jitter picks below it")
    func backoff() {
        let policy = RetryPolicy(retries: 10, initialDelay: .milliseconds(100), maximumDelay: .seconds(1), jitter: { $0 / 2 })
        #expect(policy.backoffBound(beforeRetry: 0) == .milliseconds(100))
        #expect(policy.backoffBound(beforeRetry: 1) == .milliseconds(200))
        #expect(policy.backoffBound(beforeRetry: 3) == .milliseconds(800))
        #expect(policy.backoffBound(beforeRetry: 4) == .seconds(1))
        #expect(policy.backoffBound(beforeRetry: 1000) == .seconds(1))
        #expect(policy.delay(beforeRetry: 2, after: .badStatus(url: nil, 503)) == .milliseconds(200))
        let uniform = RetryPolicy(retries: 1, initialDelay: .milliseconds(100))
        for _ in 0..<50 {
            let delay = uniform.delay(beforeRetry: 0, after: .badStatus(url: nil, 503))
            #expect(delay >= .zero && delay <= .milliseconds(100))
        }
    }

    @Test("Retry-After: delay-seconds and HTTP dates are read, capped by the policy; garbage is ignored")
    func retryAfter() throws {
        #expect(RetryPolicy.retryAfter("7") == .seconds(7))
        #expect(RetryPolicy.retryAfter(" 0 ") == .zero)
        #expect(RetryPolicy.retryAfter("soon") == nil)
        #expect(RetryPolicy.retryAfter("-3") == nil)
        #expect(RetryPolicy.retryAfter(nil) == nil)
        let now = try #require(ISO8601DateFormatter().date(from: "1994-11-06T08:49:00Z"))
        #expect(RetryPolicy.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .seconds(37))
        #expect(RetryPolicy.retryAfter("Sun, 06 Nov 1994 08:48:00 GMT", now: now) == .zero)

        let policy = RetryPolicy(retries: 1, maximumRetryAfter: .seconds(5))
        var error = DownloadError.badStatus(url: nil, 503)
        error.retryAfter = .seconds(3)
        #expect(policy.delay(beforeRetry: 0, after: error) == .seconds(3))
        error.retryAfter = .seconds(3600)
        #expect(policy.delay(beforeRetry: 0, after: error) == .seconds(5))
    }
}

@Suite("Downloader retries with a fake transport")
struct DownloaderRetryTests {
    let url = URL(string: "http://example.test/payload")!

    @Test("503 twice then 200: three attempts, backoff waits doubling, events in order")
    func serviceUnavailableTwice() async throws {
        let transport = FakeTransport { request, index in
            index < 2 ? FakeTransport.response(request.url, status: 503, chunks: [Array("busy".utf8)])
                      : FakeTransport.response(request.url, headers: [("Content-Length", "3")], chunks: [[1, 2, 3]])
        }
        let sleeps = RecordedSleeps()
        let recorder = EventRecorder()
        let downloader = Downloader(transport: transport, configuration: .init(retryPolicy: sleeps.policy(retries: 3), accessories: [recorder]))
        let result = try await downloader.result(for: DownloadRequest(url: url))
        #expect(result.data == [1, 2, 3])
        #expect(transport.count == 3)
        #expect(sleeps.recorded == [.milliseconds(100), .milliseconds(200)])
        #expect(recorder.names == ["start", "response", "retry", "start", "response", "retry", "start", "response", "finish"])
        #expect(recorder.hookCalls == ["willStart", "willStop", "didStop"])
        guard case .finish(let bytes, let attempts, let error) = recorder.recorded.last?.kind else {
            Issue.record("no finish event")
            return
        }
        #expect(bytes == 3 && attempts == 3 && error == nil)
    }

    @Test("Retry-After is honoured instead of the backoff, and capped")
    func retryAfterHonoured() async throws {
        let transport = FakeTransport { request, index in
            switch index {
            case 0: FakeTransport.response(request.url, status: 503, headers: [("Retry-After", "7")], chunks: [])
            case 1: FakeTransport.response(request.url, status: 429, headers: [("Retry-After", "86400")], chunks: [])
            default: FakeTransport.response(request.url, chunks: [[9]])
            }
        }
        let sleeps = RecordedSleeps()
        let downloader = Downloader(transport: transport,
                                    configuration: .init(retryPolicy: sleeps.policy(retries: 2, maximumRetryAfter: .seconds(30))))
        #expect(try await downloader.result(for: DownloadRequest(url: url)).data == [9])
        #expect(sleeps.recorded == [.seconds(7), .seconds(30)])
    }

    @Test("retries run out: the last error is reported with the number of attempts")
    func exhausted() async throws {
        let transport = FakeTransport { request, _ in FakeTransport.response(request.url, status: 500, chunks: []) }
        let sleeps = RecordedSleeps()
        var request = DownloadRequest(url: url)
        request.retryPolicy = sleeps.policy(retries: 2)
        let downloader = Downloader(transport: transport)
        await #expect { try await downloader.result(for: request) } throws: {
            let error = $0 as? DownloadError
            return error?.code == .badStatus && error?.status == 500 && error?.attempts == 3
        }
        #expect(transport.count == 3)
        #expect(sleeps.recorded.count == 2)
    }

    @Test("404, a decryption failure and an integrity failure are never retried")
    func notRetried() async throws {
        let transport = FakeTransport { request, _ in
            switch request.url.path {
            case "/missing": FakeTransport.response(request.url, status: 404, chunks: [])
            default: FakeTransport.response(request.url, chunks: [[0xFF ^ 0x11, 1]])
            }
        }
        let sleeps = RecordedSleeps()
        let downloader = Downloader(transport: transport, configuration: .init(retryPolicy: sleeps.policy(retries: 5)))
        await #expect { try await downloader.result(for: DownloadRequest(url: URL(string: "http://h.test/missing")!)) } throws: {
            ($0 as? DownloadError)?.code == .badStatus
        }
        await #expect { try await downloader.result(for: DownloadRequest(url: url, decryptor: XORDecryptor(key: 0x11))) } throws: {
            ($0 as? DownloadError)?.code == .decryptionFailed
        }
        var checked = DownloadRequest(url: URL(string: "http://h.test/checked")!)
        checked.expectedSHA256 = [UInt8](repeating: 0, count: 32)
        await #expect { try await downloader.result(for: checked) } throws: { ($0 as? DownloadError)?.code == .integrity }
        #expect(transport.count == 3)
        #expect(sleeps.recorded.isEmpty)
    }

    @Test("a body cut mid-way resumes with Range / If-Range; the decryptor continues where it stopped")
    func cutThenResumed() async throws {
        let plain: [UInt8] = Array(0..<10)
        let cipher = plain.map { $0 ^ 0x42 }
        let transport = FakeTransport { request, index in
            if index == 0 {
                let head = DownloadResponse(url: request.url, status: 200, headers: [("Content-Length", "10"), ("ETag", "\"v1\"")])
                return TransportResponse(head: head, body: CutBody.make([Array(cipher[0..<4])], then: .connectionClosed(url: nil)))
            }
            return FakeTransport.response(request.url, status: 206,
                                          headers: [("Content-Range", "bytes 4-9/10"), ("Content-Length", "6"), ("ETag", "\"v1\"")],
                                          chunks: [Array(cipher[4...])])
        }
        let sleeps = RecordedSleeps()
        let recorder = EventRecorder()
        let downloader = Downloader(transport: transport, configuration: .init(retryPolicy: sleeps.policy(retries: 1), accessories: [recorder]))
        let result = try await downloader.result(for: DownloadRequest(url: url, decryptor: XORDecryptor(key: 0x42)))
        #expect(result.data == plain)
        #expect(result.source == .resumed)
        #expect(result.response.status == 200)
        #expect(result.response.contentLength == 10)
        #expect(result.bytesReceived == 10)
        let second = try #require(transport.requests.last)
        #expect(second.headers.contains { $0.name == "Range" && $0.value == "bytes=4-" })
        #expect(second.headers.contains { $0.name == "If-Range" && $0.value == "\"v1\"" })
        #expect(recorder.names.contains("resume"))
        let retry = recorder.recorded.first { $0.name == "retry" }
        guard case .retry(_, _, let error) = retry?.kind else {
            Issue.record("no retry event")
            return
        }
        #expect(error.code == .truncated && error.receivedLength == 4)
    }

    @Test("a cut without a validator starts over; a 200 answer to the range starts over too")
    func cutThenRestarted() async throws {
        let body: [UInt8] = Array(0..<8)
        for validator in [false, true] {
            let transport = FakeTransport { request, index in
                let headers: [(name: String, value: String)] = [("Content-Length", "8")] + (validator ? [("ETag", "\"x\"")] : [])
                if index == 0 {
                    let head = DownloadResponse(url: request.url, status: 200, headers: headers)
                    return TransportResponse(head: head, body: CutBody.make([Array(body[0..<5])], then: .connectionClosed(url: nil)))
                }
                return FakeTransport.response(request.url, headers: headers, chunks: [body])
            }
            let downloader = Downloader(transport: transport, configuration: .init(retryPolicy: RecordedSleeps().policy(retries: 1)))
            let result = try await downloader.result(for: DownloadRequest(url: url))
            #expect(result.data == body)
            #expect(result.source == .network)
            let asked = transport.requests.last?.headers.contains { $0.name == "Range" } ?? false
            #expect(asked == validator)
        }
    }

    @Test("cancelling the caller during the backoff wait ends the transfer")
    func cancelledWhileWaiting() async throws {
        let transport = FakeTransport { request, _ in FakeTransport.response(request.url, status: 503, chunks: []) }
        let downloader = Downloader(transport: transport, configuration: .init(retryPolicy: RecordedSleeps(blocking: true).policy(retries: 3)))
        let events = downloader.eventStream()
        let task = downloader.download(DownloadRequest(url: url))
        var finished: DownloadEvent?
        for await event in events {
            if event.name == "retry" { task.cancel() }
            if event.name == "finish" {
                finished = event
                break
            }
        }
        guard case .finish(_, _, let error) = finished?.kind else {
            Issue.record("no finish event")
            return
        }
        #expect(error?.code == .cancelled)
        await #expect { try await task.value } throws: { ($0 as? DownloadError)?.code == .cancelled }
        #expect(transport.count == 1)
    }
}
