import NIOCore

/// What the FuzzProxyReply target checks of the proxy answers the transport reads itself
/// (``ProxyHandshake``): where a `CONNECT` answer's head ends, the status line it shows, and the
/// length of a SOCKS5 reply.
///
/// Not public API: reachable only through `@_spi(Oracles)`, for the fuzz target.
@_spi(Oracles)
public enum ProxyReplyOracles {
    /// The length of the head at the start of `bytes` (through its empty line), or `nil`.
    public static func connectHeadLength(_ bytes: [UInt8]) -> Int? {
        ProxyHandshake.headLength(ByteBuffer(bytes: bytes))
    }

    /// The status `bytes` (a head) shows in messages.
    public static func connectStatus(_ bytes: [UInt8]) -> String {
        ProxyHandshake.statusLine(ByteBuffer(bytes: bytes))
    }

    /// The length of the SOCKS5 reply at the start of `bytes`, `nil` while unknown; throws for a
    /// reply that is not SOCKS5.
    public static func socksReplyLength(_ bytes: [UInt8]) throws -> Int? {
        try ProxyHandshake.replyLength(ByteBuffer(bytes: bytes))
    }
}
