import NIOCore
import NIOHTTP1

/// How the transport's exchange channels are made: HTTP/1 parts with bounded buffering both ways.
enum HTTPStreams {
    /// HTTP/2 flow-control window of a stream (the connection's is four times as large).
    static let windowSize = 1 << 20

    /// Wraps `channel`, whose pipeline already speaks HTTP/1 parts, for async use. At most 4
    /// parts wait unread; reading stops until the consumer takes them.
    static func wrap(_ channel: any Channel) throws -> ExchangeChannel {
        try ExchangeChannel(wrappingChannelSynchronously: channel,
                            configuration: .init(backPressureStrategy: .init(lowWatermark: 2, highWatermark: 4),
                                                 isOutboundHalfClosureEnabled: false))
    }
}
