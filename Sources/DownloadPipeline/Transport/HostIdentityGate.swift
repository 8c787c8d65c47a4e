import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOSSL

/// Holds back each request on a TLS connection of AsyncHTTPClient until the server's
/// certificate has been checked against the request's host (``ServerIdentity``).
///
/// AsyncHTTPClient makes its TLS handler itself and offers no verification callback, but it
/// calls its connection "debug initializers" after the handshake and before the connection
/// serves any request. ``install(on:)`` puts this handler there, between the HTTP encoder and
/// AsyncHTTPClient's request handler (on an HTTP/2 stream: between the HTTP/1-to-HTTP/2 codec
/// and the request handler), where it sees each request head before it is encoded. The host is
/// the head's `Host` (HTTP/2: `:authority`), which AsyncHTTPClient sets from the URL of each
/// request, redirects included (``AsyncHTTPClientTransport`` refuses a caller's `Host` header
/// on `https`). On a mismatch nothing of the request is written: the request fails with the
/// reason and the connection is closed.
final class HostIdentityGate: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    /// The TLS handler whose peer certificate is checked (the connection's, for an HTTP/2 stream).
    private let tls: NIOSSLHandler
    /// The channel closed on a mismatch (the connection).
    private let connection: any Channel
    /// The host the certificate was found valid for on this connection.
    private var accepted: String?
    /// Set from a refused head to its request's end: every part of that request is dropped.
    private var refusing = false

    private init(tls: NIOSSLHandler, connection: any Channel) {
        self.tls = tls
        self.connection = connection
    }

    /// Adds the gate to an HTTP/1.1 connection that runs over TLS, or to an HTTP/2 stream channel;
    /// an HTTP/1.1 connection without a TLS handler is plain HTTP and is left as it is. Fails (so
    /// AsyncHTTPClient fails the connection or the stream, and nothing is sent) when an HTTP/2
    /// connection has no TLS handler, or a pipeline lacks the handler the gate goes after.
    /// `HostNameCheckTests` makes a request on every path, so a change of AsyncHTTPClient's
    /// pipelines that left a connection without the gate fails there.
    @Sendable static func install(on channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.submit {
            let connection = channel.parent ?? channel
            guard let tls = try? connection.pipeline.syncOperations.handler(type: NIOSSLHandler.self) else {
                if channel.parent != nil { throw DownloadError.transport(url: nil, "TLS: an HTTP/2 connection without TLS cannot have its host name checked") }
                return
            }
            let pipeline = channel.pipeline.syncOperations
            let gate = HostIdentityGate(tls: tls, connection: connection)
            if channel.parent != nil {
                let codec = try pipeline.context(handlerType: HTTP2FramePayloadToHTTP1ClientCodec.self)
                try pipeline.addHandler(gate, position: .after(codec.handler))
            } else {
                let encoder = try pipeline.context(handlerType: HTTPRequestEncoder.self)
                try pipeline.addHandler(gate, position: .after(encoder.handler))
            }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .head(let head) = unwrapOutboundIn(data) {
            refusing = false
            let authority = head.headers.first(name: "host") ?? ""
            let host = ServerIdentity.host(ofAuthority: authority)
            if authority.isEmpty || host.lowercased() != accepted {
                if let reason = authority.isEmpty ? "TLS: the request names no host to check the server's certificate against; no request was sent"
                    : ServerIdentity.mismatch(host: host, leaf: try? tls.peerCertificate?.toDERBytes()) {
                    refusing = true
                    refuse(context: context, url: "https://\(authority)\(head.uri)", reason: reason)
                } else {
                    accepted = host.lowercased()
                }
            }
        }
        if refusing {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        context.write(data, promise: promise)
    }

    /// Fails the request with `reason` (on the next turn of the event loop, outside the request
    /// handler's own write) and closes the connection.
    private func refuse(context: ChannelHandlerContext, url: String, reason: String) {
        let connection = connection
        context.eventLoop.assumeIsolated().execute {
            context.fireErrorCaught(DownloadError.rejected(url: url, reason))
            connection.close(promise: nil)
        }
    }
}
