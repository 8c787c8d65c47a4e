#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Moves bytes over HTTP for the ``Downloader``: starts one request, hands back the response head
/// and streams the body.
///
/// The pipeline talks only to this protocol, so another transport (URLSession on Apple platforms,
/// a fake in unit tests) can stand in for ``NetworkTransport``.
///
/// Cancellation is the task's: cancelling the task that called ``start(_:)`` or that iterates the
/// body must abort the transfer promptly. Errors should be ``DownloadError`` values (`transport`,
/// `timeout`, `invalidURL`, `cancelled`); anything else is reported as a `transport` error.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns when the response head has arrived (after redirects, when the
    /// transport follows them). The body is read from the returned response.
    func start(_ request: TransportRequest) async throws -> TransportResponse

    /// Releases the transport's connections and threads. Later requests fail.
    func shutdown() async throws
}

/// One HTTP request as the transport sends it.
public struct TransportRequest: Sendable {
    /// The URL to fetch.
    public var url: URL
    /// The HTTP method, e.g. `GET`.
    public var method: String
    /// Request headers in order.
    public var headers: [(name: String, value: String)]
    /// The body to send, or `nil`. A transport sends ``RequestBody/length`` as `Content-Length`
    /// (chunked when unknown) and reads the bytes with ``bodyChunks()``, which reports upload
    /// progress.
    public var body: RequestBody?
    /// Called with the body bytes handed over so far.
    var bodySent: (@Sendable (Int) -> Void)?

    /// Creates a request.
    public init(url: URL, method: String = "GET", headers: [(name: String, value: String)] = [], body: RequestBody? = nil) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
    }

    /// The body's bytes for this attempt (a file is opened afresh), or an empty body.
    public func bodyChunks() -> TransportBody {
        body?.chunks(sent: bodySent) ?? .empty
    }
}

/// A response head and its streaming body.
public struct TransportResponse: Sendable {
    /// Status, headers and final URL.
    public var head: DownloadResponse
    /// The body, chunk by chunk, as it arrives. Iterate it once.
    public var body: TransportBody

    /// Creates a response.
    public init(head: DownloadResponse, body: TransportBody) {
        self.head = head
        self.body = body
    }
}

/// A response body as an asynchronous sequence of byte chunks (type-erased so any transport can
/// produce one). Iterate it once.
public struct TransportBody: AsyncSequence, Sendable {
    public typealias Element = [UInt8]

    private let makeNext: @Sendable () -> Iterator

    /// Wraps any sendable sequence of chunks.
    public init<Base: AsyncSequence & Sendable>(_ base: Base) where Base.Element == [UInt8] {
        makeNext = {
            let box = IteratorBox(base.makeAsyncIterator())
            return Iterator { try await box.next() }
        }
    }

    /// A body made of chunks that are already in memory.
    public init(chunks: [[UInt8]]) {
        makeNext = {
            var remaining = chunks[...]
            return Iterator { remaining.popFirst() }
        }
    }

    /// An empty body.
    public static var empty: TransportBody { TransportBody(chunks: []) }

    public func makeAsyncIterator() -> Iterator { makeNext() }

    /// Reads the next chunk; `nil` at the end of the body.
    public struct Iterator: AsyncIteratorProtocol {
        private let nextChunk: () async throws -> [UInt8]?

        fileprivate init(_ nextChunk: @escaping () async throws -> [UInt8]?) {
            self.nextChunk = nextChunk
        }

        public mutating func next() async throws -> [UInt8]? {
            try await nextChunk()
        }
    }
}

/// Holds a base iterator so a closure can advance it. Used by one consumer at a time.
private final class IteratorBox<Base: AsyncIteratorProtocol> where Base.Element == [UInt8] {
    private var base: Base

    init(_ base: Base) { self.base = base }

    func next() async throws -> [UInt8]? {
        try await base.next()
    }
}
