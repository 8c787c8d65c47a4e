import NIOCore
import NIOTLS

/// The last handler of a connection while it is being set up (proxy handshakes, TLS): collects
/// what the peer sends until a waiting step has its answer, and reports the end of each TLS
/// handshake with the protocol ALPN chose.
///
/// Used on the connection's event loop only, through ``SetupChannel``. A failure (an error, the
/// peer closing) fails the waiting step and every later one.
final class SetupReader: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Bytes received and not yet taken.
    private(set) var received = ByteBuffer()
    /// The waiting read: how many bytes of ``received`` make its answer (`nil`: not yet).
    private var reading: (length: (ByteBuffer) throws -> Int?, promise: EventLoopPromise<ByteBuffer>)?
    /// The waiting TLS handshake.
    private var handshaking: EventLoopPromise<String?>?
    /// The first error or end the connection met, if any.
    private(set) var failure: (any Error)?

    /// Bytes the peer sent after the setup (an HTTP/2 server's SETTINGS come right after the TLS
    /// handshake) go on to the handlers that follow.
    func removeHandler(context: ChannelHandlerContext, removalToken: ChannelHandlerContext.RemovalToken) {
        if received.readableBytes > 0 {
            let rest = received
            received = ByteBuffer()
            context.fireChannelRead(wrapInboundOut(rest))
            context.fireChannelReadComplete()
        }
        context.leavePipeline(removalToken: removalToken)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        received.writeBuffer(&buffer)
        deliver()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? TLSUserEvent, case .handshakeCompleted(let negotiated) = event {
            let waiting = handshaking
            handshaking = nil
            waiting?.succeed(negotiated)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(ChannelError.eof)
        context.fireChannelInactive()
    }

    /// The next answer: the first `length(received)` bytes once that is known.
    func read(on loop: any EventLoop, length: @escaping (ByteBuffer) throws -> Int?) -> EventLoopFuture<ByteBuffer> {
        let promise = loop.makePromise(of: ByteBuffer.self)
        reading = (length, promise)
        // What arrived before the peer closed still answers; only then does the failure.
        deliver()
        if let failure, let waiting = reading?.promise {
            reading = nil
            waiting.fail(failure)
        }
        return promise.futureResult
    }

    /// Completes when the TLS handler added before this one finishes its handshake.
    func handshake(on loop: any EventLoop) -> EventLoopFuture<String?> {
        let promise = loop.makePromise(of: String?.self)
        if let failure { promise.fail(failure) } else { handshaking = promise }
        return promise.futureResult
    }

    private func deliver() {
        guard let (length, promise) = reading else { return }
        do {
            guard let count = try length(received), count <= received.readableBytes else { return }
            reading = nil
            promise.succeed(received.readSlice(length: count)!)
        } catch {
            reading = nil
            promise.fail(error)
        }
    }

    private func fail(_ error: any Error) {
        if failure == nil { failure = error }
        let (read, handshake) = (reading?.promise, handshaking)
        reading = nil
        handshaking = nil
        read?.fail(error)
        handshake?.fail(error)
    }
}
