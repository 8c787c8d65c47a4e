import NIOCore
import NIOHTTP1

/// An HTTP/1.1 connection and the task that runs its exchanges one after another.
///
/// The task owns the channel (`executeThenClose`): it takes the next ``HTTPExchange`` submitted,
/// runs it, and hands the connection back to its pool when the response is complete and the
/// connection may be kept alive; otherwise the channel closes.
final class HTTP1Connection: Sendable {
    let channel: any Channel
    private let exchanges: AsyncStream<HTTPExchange>.Continuation

    private init(channel: any Channel, exchanges: AsyncStream<HTTPExchange>.Continuation) {
        self.channel = channel
        self.exchanges = exchanges
    }

    /// Starts the connection's task; `released` gets the connection back after each complete
    /// response it may carry another request after, `ended` when it is closed for good.
    static func start(_ exchangeChannel: ExchangeChannel, released: @escaping @Sendable (HTTP1Connection) -> Void,
                      ended: @escaping @Sendable (HTTP1Connection) -> Void) -> HTTP1Connection {
        let (stream, continuation) = AsyncStream.makeStream(of: HTTPExchange.self)
        let connection = HTTP1Connection(channel: exchangeChannel.channel, exchanges: continuation)
        Task {
            var queue = stream.makeAsyncIterator()
            try? await exchangeChannel.executeThenClose { inbound, outbound in
                var iterator = inbound.makeAsyncIterator()
                while let exchange = await queue.next() {
                    guard try await exchange.run(inbound: &iterator, outbound: outbound, channel: exchangeChannel.channel) else { break }
                    released(connection)
                }
            }
            continuation.finish()
            // Exchanges submitted as the connection ended never ran: they fail and go again.
            while let exchange = await queue.next() { exchange.fail(HTTPExchange.ClosedEarly()) }
            ended(connection)
        }
        return connection
    }

    /// Runs `exchange` next.
    func submit(_ exchange: HTTPExchange) {
        if case .terminated = exchanges.yield(exchange) { exchange.fail(HTTPExchange.ClosedEarly()) }
    }

    /// Closes the connection (when idle, or at shutdown).
    func retire() {
        exchanges.finish()
        channel.close(promise: nil)
    }
}
