import AsymmetricKeys
import NIOCore
import NIOSSL
import NIOTLS

/// After the origin's TLS handshake: joins the two connections when the certificate is for the
/// host (``ServerIdentity``) and a pin matches, else records why not and closes both.
final class PinCheckHandler: ChannelInboundHandler {
    typealias InboundIn = NIOAny

    private let host: String
    private let pins: Set<SPKIPin>
    private let verified: PinningForwarder.VerifiedChain
    private let failures: PinningForwarder.FailureBox
    private let inbound: any Channel
    /// How long the TLS handshake may take once the connection is up.
    private let handshakeTimeout: TimeAmount
    private var settled = false

    init(host: String, pins: Set<SPKIPin>, verified: PinningForwarder.VerifiedChain,
         failures: PinningForwarder.FailureBox, inbound: any Channel, handshakeTimeout: TimeAmount) {
        self.host = host
        self.handshakeTimeout = handshakeTimeout
        self.pins = pins
        self.verified = verified
        self.failures = failures
        self.inbound = inbound
    }

    /// A server that accepts the connection but never finishes the handshake would otherwise
    /// hold the request until the client's idle-read timeout, with no reason given: the
    /// handshake gets the connect timeout, and the failure says it timed out connecting.
    func channelActive(context: ChannelHandlerContext) {
        let inbound = inbound
        let failures = failures
        context.eventLoop.assumeIsolated().scheduleTask(in: handshakeTimeout) { [self] in
            guard !settled else { return }
            settled = true
            failures.record(.error(ChannelError.connectTimeout(handshakeTimeout)))
            context.close(promise: nil)
            inbound.close(promise: nil)
        }
        context.fireChannelActive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case TLSUserEvent.handshakeCompleted = event, !settled else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        settled = true
        let leaf = try? context.pipeline.syncOperations.handler(type: NIOSSLHandler.self).peerCertificate?.toDERBytes()
        if let reason = ServerIdentity.mismatch(host: host, leaf: leaf) {
            failures.record(.refused(reason))
            context.close(promise: nil)
            inbound.close(promise: nil)
            return
        }
        let seen = verified.pins
        guard seen.contains(where: { $0.map(pins.contains) ?? false }) else {
            let expected = pins.map(\.description).sorted().joined(separator: ", ")
            let chain = seen.reversed().map { $0?.description ?? "unparsed certificate" }.joined(separator: ", ")
            failures.record(.refused("TLS: the server's public key matches none of the pinned public keys (expected \(expected); the verified chain, leaf first, has \(chain.isEmpty ? "no certificate" : chain)); no request was sent"))
            context.close(promise: nil)
            inbound.close(promise: nil)
            return
        }
        guard inbound.isActive else {
            context.close(promise: nil)
            return
        }
        do {
            let (outboundGlue, inboundGlue) = GlueHandler.matchedPair()
            try context.pipeline.syncOperations.addHandler(outboundGlue)
            try inbound.pipeline.syncOperations.addHandler(inboundGlue)
            inbound.setOption(.autoRead, value: true).whenFailure { _ in }
            inbound.read()
        } catch {
            failures.record(.error(error))
            context.close(promise: nil)
            inbound.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !settled {
            settled = true
            failures.record(.error(error))
            context.close(promise: nil)
            inbound.close(promise: nil)
            return
        }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !settled {
            settled = true
            inbound.close(promise: nil)
        }
        context.fireChannelInactive()
    }
}
