import DownloadPipeline
import Foundation
import Synchronization

/// A fake origin server for cache tests: serves the current body with its ETag and extra headers
/// (a `Date` from the fake clock unless the headers give one), answers a matching If-None-Match
/// with 304, and fails on demand (a status or a refused connection).
final class CacheOrigin: Sendable {
    enum Failure: Sendable { case none, status(Int), refused }

    private struct State {
        var body: [UInt8]
        var etag: String
        var headers: [(name: String, value: String)]
        var failure = Failure.none
    }

    /// Shared with the transport's handler.
    private final class Shared: Sendable {
        let state: Mutex<State>
        init(_ state: State) { self.state = Mutex(state) }
    }

    private let shared: Shared
    let clock: FakeClock
    let transport: FakeTransport

    init(_ body: [UInt8], etag: String = "\"v1\"", headers: [(name: String, value: String)] = [], clock: FakeClock) {
        let shared = Shared(State(body: body, etag: etag, headers: headers))
        self.shared = shared
        self.clock = clock
        transport = FakeTransport { request, _ in
            let current = shared.state.withLock { $0 }
            switch current.failure {
            case .none: break
            case .status(let code):
                return FakeTransport.response(request.url, status: code, chunks: [Array("failed".utf8)])
            case .refused:
                throw DownloadError.transport(url: request.url.absoluteString, "connection refused")
            }
            var headers = current.headers
            if !headers.contains(where: { $0.name == "Date" }) { headers.append(("Date", FakeClock.httpDate(clock.date))) }
            headers.append(("ETag", current.etag))
            if request.headers.contains(where: { $0.name == "If-None-Match" && $0.value == current.etag }) {
                return FakeTransport.response(request.url, status: 304, headers: headers, chunks: [])
            }
            headers.append(("Content-Length", "\(current.body.count)"))
            return FakeTransport.response(request.url, headers: headers, chunks: [current.body])
        }
    }

    func replace(_ body: [UInt8], etag: String) { shared.state.withLock { $0.body = body; $0.etag = etag } }
    func setHeaders(_ headers: [(name: String, value: String)]) { shared.state.withLock { $0.headers = headers } }
    func fail(_ failure: Failure) { shared.state.withLock { $0.failure = failure } }

    /// Requests received so far.
    var count: Int { transport.count }
    /// Whether the latest request was conditional.
    var lastWasConditional: Bool { transport.requests.last?.headers.contains { $0.name == "If-None-Match" } == true }
}
