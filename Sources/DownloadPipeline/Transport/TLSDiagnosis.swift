import ASN1Kit
import AsymmetricKeys
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOSSL
import NIOTLS
import X509Kit

/// Why a server's certificate chain was not verified, in words.
///
/// BoringSSL's handshake error says only `CERTIFICATE_VERIFY_FAILED`. When that happens on a
/// direct connection, the transport opens one more connection to the same address, completes a
/// handshake there without verification, closes it (no request is sent) and looks at the leaf
/// certificate the server presented: expired, not yet valid, self-signed, or none of those (then
/// its issuer is not trusted). The leaf is only read, never trusted.
enum TLSDiagnosis {
    /// The reason for `host`'s certificate chain failing verification, or `nil` when the second
    /// handshake fails too (the original message stays).
    ///
    /// - Parameters:
    ///   - host: The URL's host (the TLS server name unless it is an IP address).
    ///   - address: Where to connect (the host, or its override).
    static func explainUnverifiedChain(host: String, address: String, port: Int, timeout: TimeAmount,
                                       now: Int64 = Int64(time(nil))) async -> String? {
        guard let leaf = await presentedLeaf(host: host, address: address, port: port, timeout: timeout),
              let certificate = try? Certificate(derEncoded: leaf[...]) else { return nil }
        let subject = certificate.subject.rfc4514String
        let named = subject.isEmpty ? "the server's certificate" : "the server's certificate (\(subject.prefix(200)))"
        if certificate.notAfter.secondsSince1970 < now {
            return "\(named) has expired: it was valid until \(certificate.notAfter)"
        }
        if certificate.notBefore.secondsSince1970 > now {
            return "\(named) is not valid yet: it is valid from \(certificate.notBefore)"
        }
        if certificate.subject == certificate.issuer {
            return "\(named) is self-signed and not one of the trusted certificates (give it with --cacert to trust it)"
        }
        return "the server's certificate chain does not lead to a trusted root: its certificate was issued by \(certificate.issuer.rfc4514String.prefix(200)), which is not trusted (give that CA with --cacert)"
    }

    /// The leaf certificate (DER) of a handshake with `host` without verification, or `nil`.
    private static func presentedLeaf(host: String, address: String, port: Int, timeout: TimeAmount) async -> [UInt8]? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        guard let context = try? NIOSSLContext(configuration: configuration) else { return nil }
        let serverName = ConnectionSetup.isIPAddress(host) ? nil : host
        return await DiagnosticProbe.answer(host: address, port: port, timeout: timeout) { promise, pipeline in
            try pipeline.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
            try pipeline.addHandler(LeafCapture(promise: promise))
        }
    }

    /// Completes the probe with the peer's leaf certificate when the handshake completes.
    private final class LeafCapture: DiagnosticProbe.Handler<[UInt8]> {
        override func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case TLSUserEvent.handshakeCompleted = event {
                let tls = try? context.pipeline.syncOperations.handler(type: NIOSSLHandler.self)
                promise.succeed(try? tls?.peerCertificate?.toDERBytes())
            }
            context.fireUserInboundEventTriggered(event)
        }
    }
}
