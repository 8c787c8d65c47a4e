import NIOCore
import NIOHTTP1
import NIOHTTP2

/// An HTTP/2 connection: each exchange runs on a stream of its own, many at once.
final class HTTP2Connection: Sendable {
    let channel: any Channel
    private let multiplexer: NIOHTTP2Handler.AsyncStreamMultiplexer<Void>
    private let idleReadTimeout: TimeAmount

    init(channel: any Channel, multiplexer: NIOHTTP2Handler.AsyncStreamMultiplexer<Void>, idleReadTimeout: TimeAmount) {
        self.channel = channel
        self.multiplexer = multiplexer
        self.idleReadTimeout = idleReadTimeout
    }

    /// Opens a stream for `exchange` and runs it there.
    func submit(_ exchange: HTTPExchange) {
        let multiplexer = multiplexer
        let idleReadTimeout = idleReadTimeout
        Task {
            let stream: ExchangeChannel
            do {
                stream = try await multiplexer.openStream { streamChannel in
                    streamChannel.eventLoop.makeCompletedFuture {
                        let pipeline = streamChannel.pipeline.syncOperations
                        try pipeline.addHandler(HTTP2FramePayloadToHTTP1ClientCodec(httpProtocol: .https))
                        try pipeline.addHandler(ReadTimeoutHandler(timeout: idleReadTimeout))
                        return try HTTPStreams.wrap(streamChannel)
                    }
                }
            } catch {
                exchange.fail(error)
                return
            }
            try? await stream.executeThenClose { inbound, outbound in
                var iterator = inbound.makeAsyncIterator()
                _ = try await exchange.run(inbound: &iterator, outbound: outbound, channel: stream.channel)
            }
        }
    }

    func retire() {
        channel.close(promise: nil)
    }
}
