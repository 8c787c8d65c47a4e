import NIOCore

/// Fails a connection (or an HTTP/2 stream) when a read it asked for brings no byte within the
/// idle-read timeout.
///
/// Only time spent waiting for the peer counts: the clock starts when a read is asked for and
/// stops when bytes arrive, so a consumer that holds the body back (no read asked for while it is
/// busy) never trips it.
final class ReadTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny

    /// The error the connection fails with.
    struct Expired: Error, Sendable {}

    private let timeout: TimeAmount
    private var pending: Scheduled<Void>?

    init(timeout: TimeAmount) { self.timeout = timeout }

    func read(context: ChannelHandlerContext) {
        read(context: context, forwarding: true)
    }

    private func read(context: ChannelHandlerContext, forwarding: Bool) {
        if pending == nil {
            pending = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
                pending = nil
                context.fireErrorCaught(Expired())
                context.close(promise: nil)
            }
        }
        if forwarding { context.read() }
    }

    /// A request being sent starts the clock anew: its answer is awaited from now, however long
    /// the connection sat idle (the read it waits on may have been asked for before this
    /// handler was added).
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        pending?.cancel()
        pending = nil
        read(context: context, forwarding: false)
        context.write(data, promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        pending?.cancel()
        pending = nil
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        pending?.cancel()
        pending = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        pending?.cancel()
        pending = nil
    }
}
