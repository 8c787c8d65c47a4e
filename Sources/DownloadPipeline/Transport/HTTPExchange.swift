import NIOCore
import NIOHTTP1
import Synchronization

/// The channel one request and its response travel on: an HTTP/1.1 connection or an HTTP/2
/// stream, as HTTP/1 parts either way.
typealias ExchangeChannel = NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>

/// One request and its response on an ``ExchangeChannel``: the head is handed to the caller
/// waiting in ``response(submit:)``; the body is pushed into a ``BodyHandOff`` that the caller's
/// ``TransportBody`` reads (the task that runs the exchange is the body's read-ahead task).
///
/// The caller leaving (cancelled, or the body dropped before its end) closes the channel, so the
/// connection is never reused mid-response.
final class HTTPExchange: Sendable {
    /// A reused connection failed before any of the response came: the request goes again on a
    /// new connection.
    struct Stale: Error, Sendable { let cause: any Error & Sendable }
    /// The consumer left before the body's end.
    struct Abandoned: Error, Sendable {}
    /// The connection closed before the response (or its body) was complete.
    struct ClosedEarly: Error, Sendable {}
    /// The server's answer broke HTTP: the sentence.
    struct Malformed: Error, Sendable, CustomStringConvertible { let description: String }

    let head: HTTPRequestHead
    private let requestBody: TransportBody?
    let url: String
    /// Whether the connection carried an earlier request (a failure before the response is then
    /// ``Stale``).
    let reused: Bool
    let handOff = BodyHandOff()

    private struct State {
        var waiter: CheckedContinuation<HTTPResponseHead, any Error>?
        var outcome: Result<HTTPResponseHead, any Error>?
        var delivered = false
        var channel: (any Channel)?
        /// The caller left (cancelled, or dropped the body).
        var left = false
        /// The response ended: the connection may carry the next request.
        var complete = false
    }

    private let state = Mutex(State())

    init(head: HTTPRequestHead, body: TransportBody?, url: String, reused: Bool) {
        self.head = head
        requestBody = body
        self.url = url
        self.reused = reused
    }

    /// Suspends until the response head arrives; `submit` hands the exchange to its connection.
    func response(submit: @Sendable (HTTPExchange) -> Void) async throws -> HTTPResponseHead {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponseHead, any Error>) in
                let ready = state.withLock { state -> Result<HTTPResponseHead, any Error>? in
                    if let outcome = state.outcome {
                        state.delivered = true
                        return outcome
                    }
                    state.waiter = continuation
                    return nil
                }
                if let ready {
                    continuation.resume(with: ready)
                } else {
                    submit(self)
                }
            }
        } onCancel: {
            leave(CancellationError())
        }
    }

    /// The body's consumer left before its end, or the caller was cancelled: the channel closes.
    func leave(_ error: any Error = Abandoned()) {
        let channel = state.withLock { state -> (any Channel)? in
            guard !state.complete else { return nil }
            state.left = true
            return state.channel
        }
        handOff.close()
        deliver(.failure(error))
        channel?.close(promise: nil)
    }

    /// Fails the exchange before it ran (the stream or connection could not be had).
    func fail(_ error: any Error) {
        deliver(.failure(reused ? Stale(cause: SendableError(error)) : error))
    }

    private func deliver(_ outcome: Result<HTTPResponseHead, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<HTTPResponseHead, any Error>? in
            guard !state.delivered else { return nil }
            guard let waiter = state.waiter else {
                state.outcome = outcome
                return nil
            }
            state.delivered = true
            state.waiter = nil
            return waiter
        }
        waiter?.resume(with: outcome)
    }

    /// Sends the request and reads the response; `true` when the connection can carry another
    /// request (HTTP/1.1 keep-alive, the response complete). Throws after reporting the failure
    /// to the caller (the connection must close).
    func run(inbound: inout NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator,
             outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>, channel: any Channel) async throws -> Bool {
        let left = state.withLock { state in
            state.channel = channel
            return state.left
        }
        if left { throw Abandoned() }
        var headDelivered = false
        do {
            // A server may answer and close before the request is all written (a slow client's
            // last write then meets a closed channel): its answer is read all the same, as curl
            // reads it, and only when none came does the write's failure stand.
            var writeFailure: (any Error)?
            do {
                try await outbound.write(.head(head))
                if let requestBody {
                    for try await chunk in requestBody {
                        try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: chunk))))
                    }
                }
                try await outbound.write(.end(nil))
            } catch where !(error is CancellationError) {
                writeFailure = error
            }
            let response: HTTPResponseHead
            do {
                response = try await Self.responseHead(&inbound)
            } catch is ClosedEarly {
                // Nothing came back: the write's failure, if any, says what happened.
                throw writeFailure ?? ClosedEarly()
            }
            headDelivered = true
            deliver(.success(response))
            while let part = try await inbound.next() {
                switch part {
                case .body(let buffer):
                    guard await handOff.push(buffer) else { throw Abandoned() }
                case .end:
                    let reusable = state.withLock { state in
                        state.complete = true
                        state.channel = nil
                        return !state.left
                    }
                    handOff.finish(nil)
                    return reusable && writeFailure == nil && response.isKeepAlive && head.isKeepAlive
                case .head:
                    throw Malformed(description: "the server sent a second response head in one response")
                }
            }
            throw ClosedEarly()
        } catch {
            if headDelivered {
                handOff.finish(NetworkTransport.translate(error, url: url))
            } else if reused, !(error is Abandoned), !(error is ReadTimeoutHandler.Expired) {
                deliver(.failure(Stale(cause: SendableError(error))))
            } else {
                deliver(.failure(error))
            }
            throw error
        }
    }

    /// The final response head: informational (1xx) responses before it are skipped.
    private static func responseHead(_ inbound: inout NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator) async throws -> HTTPResponseHead {
        while let part = try await inbound.next() {
            switch part {
            case .head(let head) where (100..<200).contains(head.status.code) && head.status.code != 101:
                continue
            case .head(let head):
                return head
            case .end:
                continue
            case .body:
                throw Malformed(description: "the server sent a body before a response head")
            }
        }
        throw ClosedEarly()
    }
}

/// Any error as a sendable value (the cause of a ``HTTPExchange/Stale`` failure).
struct SendableError: Error, Sendable, CustomStringConvertible {
    let description: String
    let code: Int32?

    init(_ error: any Error) {
        description = String(describing: error)
        code = (error as? IOError)?.errnoCode
    }
}

/// The body of an exchange's response for the pipeline: the chunks its hand-off delivers.
/// Dropping every copy of it, or its iterator, before the body's end closes the connection.
struct ExchangeBody: AsyncSequence, Sendable {
    typealias Element = [UInt8]

    private let owner: Owner

    init(_ exchange: HTTPExchange) { owner = Owner(exchange: exchange) }

    func makeAsyncIterator() -> Iterator { Iterator(owner: owner) }

    struct Iterator: AsyncIteratorProtocol {
        fileprivate let owner: Owner

        mutating func next() async throws -> [UInt8]? {
            try await owner.exchange.handOff.take()
        }
    }

    fileprivate final class Owner: Sendable {
        let exchange: HTTPExchange

        init(exchange: HTTPExchange) { self.exchange = exchange }

        deinit { exchange.leave() }
    }
}

