import NIOCore
import NIOPosix

/// One short connection made only to explain a failure (``TLSDiagnosis``):
/// connect, optionally send a few bytes, let a ``Handler`` pick the answer, close. Nothing of a
/// request is ever sent on it, and it never takes longer than its timeout.
enum DiagnosticProbe {
    /// Connects to `host`:`port`, adds `handlers` (then a ``Handler`` completing the answer),
    /// sends `greeting` when given, and returns the answer, or `nil` when the connection fails,
    /// closes or `timeout` passes first.
    static func answer<Answer: Sendable>(
        host: String, port: Int, timeout: TimeAmount, greeting: String? = nil,
        handlers: @escaping @Sendable (EventLoopPromise<Answer?>, ChannelPipeline.SynchronousOperations) throws -> Void
    ) async -> Answer? {
        let group = MultiThreadedEventLoopGroup.singleton
        let promise = group.next().makePromise(of: Answer?.self)
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try handlers(promise, channel.pipeline.syncOperations) }
            }
        do {
            let channel = try await bootstrap.connect(host: host, port: port).get()
            let deadline = channel.eventLoop.scheduleTask(in: timeout) { promise.succeed(nil) }
            if let greeting { channel.writeAndFlush(ByteBuffer(string: greeting), promise: nil) }
            let answer = try? await promise.futureResult.get()
            deadline.cancel()
            try? await channel.close()
            return answer ?? nil
        } catch {
            promise.succeed(nil)
            return nil
        }
    }

    /// The last handler of a probe: completes the promise with `nil` when the connection fails or
    /// closes before a subclass completed it with the answer (from its `channelRead` or
    /// `userInboundEventTriggered` override).
    class Handler<Answer: Sendable>: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let promise: EventLoopPromise<Answer?>

        init(promise: EventLoopPromise<Answer?>) { self.promise = promise }

        // Declared here so that a subclass's override is what the protocol calls.
        func channelRead(context: ChannelHandlerContext, data: NIOAny) { context.fireChannelRead(data) }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) { context.fireUserInboundEventTriggered(event) }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            promise.succeed(nil)
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.succeed(nil)
            context.fireChannelInactive()
        }
    }
}
