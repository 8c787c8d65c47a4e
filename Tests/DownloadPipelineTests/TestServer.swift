import Foundation
import Hummingbird
import Synchronization

/// A real HTTP server (Hummingbird 2) on 127.0.0.1 and an ephemeral port, serving registered
/// resources at `/files/NAME` with ETag / Last-Modified, conditional GET (304) and byte ranges
/// (206 with If-Range), failing first requests (503 with or without Retry-After), and
/// `/status/CODE`. It counts hits per path and the most requests in
/// flight at once.
final class TestServer: Sendable {
    /// A payload the server serves at `/files/NAME`.
    struct Resource: Sendable {
        var bytes: [UInt8]
        var etag: String? = nil
        var lastModified: String? = nil
        /// Wait before answering (holds requests in flight).
        var delay: Duration = .zero
        /// Write the body in chunks of this size, with `chunkDelay` between them.
        var chunkSize = 64 * 1024
        var chunkDelay: Duration = .zero
        /// Answer the first `failures` requests with `failureStatus` (and `Retry-After` when set).
        var failures = 0
        var failureStatus = 503
        var retryAfter: String? = nil
        /// Extra response headers (e.g. `Content-Digest`).
        var headers: [String: String] = [:]
    }

    struct Stats: Sendable {
        var hits: [String: Int] = [:]
        var inFlight = 0
        var maxInFlight = 0
        var requestHeaders: [String: [String: String]] = [:]
        /// Bodies written to the end, per name.
        var completed: [String: Int] = [:]
    }

    /// State shared with the route handlers.
    final class State: Sendable {
        let resources = Mutex<[String: Resource]>([:])
        let stats = Mutex(Stats())
        /// Response bodies whose writing ended, written to the end or cut off.
        let bodiesEnded = AwaitedCount()

        func begin(_ name: String, headers: [String: String]) {
            stats.withLock { stats in
                stats.hits[name, default: 0] += 1
                stats.inFlight += 1
                stats.maxInFlight = max(stats.maxInFlight, stats.inFlight)
                stats.requestHeaders[name] = headers
            }
        }

        func end() {
            stats.withLock { $0.inFlight -= 1 }
        }
    }

    let port: Int
    let state: State
    private let runner: Task<Void, any Error>

    private init(port: Int, state: State, runner: Task<Void, any Error>) {
        self.port = port
        self.state = state
        self.runner = runner
    }

    /// Starts a server and waits until it listens.
    static func start() async throws -> TestServer {
        let state = State()
        let router = Router()
        router.get("/files/:name") { request, context -> Response in
            try await serve(name: context.parameters.get("name") ?? "", request: request, state: state)
        }
        router.get("/redirect/:name") { request, context -> Response in
            let name = context.parameters.get("name") ?? ""
            state.begin("redirect/\(name)", headers: headerDictionary(request))
            state.end()
            var headers = HTTPFields()
            headers[.location] = "/files/\(name)"
            return Response(status: .found, headers: headers)
        }
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/status/:code", method: method) { request, context -> Response in
                let code = Int(context.parameters.get("code") ?? "") ?? 500
                state.begin("status/\(code)", headers: headerDictionary(request))
                // A request body is read to its end before the answer.
                for try await _ in request.body {}
                state.end()
                return Response(status: .init(code: code), body: ResponseBody(byteBuffer: ByteBuffer(string: "status \(code)\n")))
            }
        }
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            router.on("/echo", method: method) { request, _ -> Response in
                try await EchoRoute.answer(request, state: state)
            }
            router.on("/echo/**", method: method) { request, _ -> Response in
                try await EchoRoute.answer(request, state: state)
            }
        }
        let (port, runner) = try await LoopbackApplication.start(router: router, what: "the test server")
        return TestServer(port: port, state: state, runner: runner)
    }

    /// Stops the server.
    func stop() async {
        runner.cancel()
        _ = await runner.result
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    func add(_ name: String, _ resource: Resource) {
        state.resources.withLock { $0[name] = resource }
    }

    func hits(_ name: String) -> Int { state.stats.withLock { $0.hits[name] ?? 0 } }
    var maxInFlight: Int { state.stats.withLock { $0.maxInFlight } }
    /// Bodies of `name` written to their end.
    func completed(_ name: String) -> Int { state.stats.withLock { $0.completed[name] ?? 0 } }
    /// Returns once `count` response bodies (of any name) stopped being written, completed or cut
    /// off by the client.
    func waitForBodiesEnded(_ count: Int) async { await state.bodiesEnded.wait(atLeast: count) }
    /// The headers of the latest request for `name`, names in lowercase.
    func lastHeaders(_ name: String) -> [String: String] { state.stats.withLock { $0.requestHeaders[name] ?? [:] } }

    private static func headerDictionary(_ request: Request) -> [String: String] {
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        return headers
    }

    private static func serve(name: String, request: Request, state: State) async throws -> Response {
        let headers = headerDictionary(request)
        state.begin(name, headers: headers)
        guard let resource = state.resources.withLock({ $0[name] }) else {
            state.end()
            return Response(status: .notFound, body: ResponseBody(byteBuffer: ByteBuffer(string: "no such file\n")))
        }
        if resource.delay > .zero { try? await Task.sleep(for: resource.delay) }
        var responseHeaders = HTTPFields()
        if state.stats.withLock({ $0.hits[name] ?? 0 }) <= resource.failures {
            state.end()
            if let retryAfter = resource.retryAfter { responseHeaders[.retryAfter] = retryAfter }
            return Response(status: .init(code: resource.failureStatus), headers: responseHeaders,
                            body: ResponseBody(byteBuffer: ByteBuffer(string: "try again later\n")))
        }
        for (field, value) in resource.headers {
            if let name = HTTPFields.Element.Name(field) { responseHeaders[name] = value }
        }
        if let etag = resource.etag { responseHeaders[.eTag] = etag }
        if let lastModified = resource.lastModified { responseHeaders[.lastModified] = lastModified }
        if let ifNoneMatch = headers["if-none-match"], ifNoneMatch == resource.etag {
            state.end()
            return Response(status: .notModified, headers: responseHeaders)
        }
        if headers["if-none-match"] == nil, let since = headers["if-modified-since"], since == resource.lastModified {
            state.end()
            return Response(status: .notModified, headers: responseHeaders)
        }
        let total = resource.bytes.count
        var start = 0
        var status = HTTPResponse.Status.ok
        if let range = headers["range"], range.hasPrefix("bytes="), range.hasSuffix("-"),
           let first = Int(range.dropFirst(6).dropLast()), first < total {
            let ifRange = headers["if-range"]
            if ifRange == nil || ifRange == resource.etag || ifRange == resource.lastModified {
                start = first
                status = .partialContent
                responseHeaders[.contentRange] = "bytes \(first)-\(total - 1)/\(total)"
            }
        }
        let bytes = resource.bytes[start...]
        let body = ResponseBody(contentLength: bytes.count) { writer in
            defer {
                state.end()
                state.bodiesEnded.increment()
            }
            var offset = bytes.startIndex
            while offset < bytes.endIndex {
                let end = min(offset + resource.chunkSize, bytes.endIndex)
                try await writer.write(ByteBuffer(bytes: bytes[offset..<end]))
                offset = end
                if resource.chunkDelay > .zero, offset < bytes.endIndex { try await Task.sleep(for: resource.chunkDelay) }
            }
            try await writer.finish(nil)
            state.stats.withLock { $0.completed[name, default: 0] += 1 }
        }
        return Response(status: status, headers: responseHeaders, body: body)
    }
}

struct TestServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
