#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOSSL

extension AsyncHTTPClientTransport {
    /// A TLS failure in words: what went wrong in the handshake (untrusted chain, wrong host name,
    /// a client certificate required or refused), with the TLS library's own text after it;
    /// `nil` for errors that are not TLS errors.
    static func translateTLS(_ error: any Error, url: String) -> DownloadError? {
        if let error = error as? NIOSSLExtraError {
            return .transport(url: url, "TLS: \(error)", cause: error)
        }
        let text: String
        if let error = error as? NIOSSLError {
            switch error {
            case .handshakeFailed(let inner): text = String(describing: inner)
            case .uncleanShutdown:
                return .transport(url: url, "TLS: the server closed the connection without a TLS close_notify (a server that requires a client certificate does this to a client without one)", cause: error)
            default: text = String(describing: error)
            }
        } else if let error = error as? BoringSSLError {
            text = String(describing: error)
        } else {
            return nil
        }
        let reasons: [(String, String)] = [
            ("CERTIFICATE_VERIFY_FAILED", "the server's certificate chain does not lead to a trusted root (give its CA with --cacert)"),
            ("CERTIFICATE_REQUIRED", "the server requires a client certificate (give --client-identity)"),
            ("UNKNOWN_CA", "the peer does not trust the issuer of the certificate it was given"),
            ("BAD_CERTIFICATE", "the peer refused the certificate it was given"),
            ("HANDSHAKE_FAILURE", "the peer refused the handshake (no common protocol version, cipher or required certificate)"),
            ("WRONG_VERSION_NUMBER", "the server did not answer with TLS (is it plain HTTP?)"),
        ]
        let reason = reasons.first { text.contains($0.0) }?.1 ?? "handshake failed"
        return .transport(url: url, "TLS: \(reason) [\(text)]", cause: error)
    }
}

extension AsyncHTTPClientTransport {
    /// A connection to an `https` URL closed before any response, by a client without an
    /// identity: with TLS 1.3 the client's handshake ends before the server checks the client
    /// certificate, so a server that requires one just closes the connection. The message says so.
    static func explainingHandshake(_ error: DownloadError, request: TransportRequest, security: TransportSecurity) -> DownloadError {
        guard error.code == .transport, error.closedByPeer,
              request.url.scheme?.lowercased() == "https", security.clientIdentity == nil else { return error }
        var explained = DownloadError.transport(url: error.url,
                                                "\(error.reason) right after the TLS handshake, before any response; a server that requires a client certificate does this to a client without one (give a client identity)",
                                                cause: error.cause)
        explained.closedByPeer = error.closedByPeer
        return explained
    }
}
