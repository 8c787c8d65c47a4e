#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOSSL

extension NetworkTransport {
    /// A TLS failure in words: what went wrong in the handshake (untrusted chain, a client
    /// certificate required or refused, no common protocol); `nil` for errors that are not TLS
    /// errors. The TLS library's own text (an internal error code and a source path) stays in the
    /// error's cause, out of the message.
    static func translateTLS(_ error: any Error, url: String) -> DownloadError? {
        if let error = error as? NIOSSLExtraError {
            let reason = switch error {
            case .invalidSNIHostname, .cannotUseIPAddressInSNI:
                "the URL's host cannot be sent as a TLS server name (SNI): it must be a DNS name of letters, digits, hyphens and dots"
            case .failedToValidateHostname, .serverHostnameImpossibleToMatch:
                "the server's certificate is not valid for the URL's host"
            default:
                "the TLS library refused the connection (\(String(describing: error).split(separator: ":").first.map(String.init) ?? "unknown"))"
            }
            return .transport(url: url, "TLS: \(reason)", cause: error)
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
            (unverifiedChainMark, "the server's certificate chain does not lead to a trusted root (give its CA with --cacert)"),
            ("CERTIFICATE_REQUIRED", "the server requires a client certificate (give --client-identity)"),
            ("UNKNOWN_CA", "the peer does not trust the issuer of the certificate it was given"),
            ("BAD_CERTIFICATE", "the peer refused the certificate it was given"),
            ("CERTIFICATE_EXPIRED", "the peer refused the certificate it was given as expired"),
            ("UNSUPPORTED_PROTOCOL", "the server supports no TLS version this client offers (TLS 1.2 and 1.3)"),
            ("NO_SHARED_CIPHER", "the server and this client have no cipher suite in common"),
            ("HANDSHAKE_FAILURE", "the peer refused the handshake (no common protocol version, cipher or required certificate)"),
            ("WRONG_VERSION_NUMBER", "the server did not answer with TLS (is it plain HTTP?)"),
        ]
        let reason = reasons.first { text.contains($0.0) }?.1 ?? "the TLS handshake failed (\(Self.shortTLSReason(text)))"
        return .transport(url: url, "TLS: \(reason)", cause: error)
    }

    /// What BoringSSL calls a chain it could not verify.
    static let unverifiedChainMark = "CERTIFICATE_VERIFY_FAILED"

    /// Whether `error` is a TLS handshake that failed on the server's certificate chain.
    static func isUnverifiedChain(_ error: DownloadError) -> Bool {
        guard error.code == .transport, let cause = error.cause else { return false }
        return (cause is NIOSSLError || cause is BoringSSLError) && String(describing: cause).contains(unverifiedChainMark)
    }

    /// The upper-case reason codes in BoringSSL's error text (`SSLV3_ALERT_…`), without its
    /// numbers and source paths; `unknown` when there are none.
    static func shortTLSReason(_ text: String) -> String {
        var codes: [String] = []
        for piece in text.split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "[" || $0 == "]" }) {
            let word = String(piece)
            if word.count >= 6, word.contains("_"), word.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }), !codes.contains(word) {
                codes.append(word)
            }
        }
        return codes.isEmpty ? "unknown" : codes.joined(separator: ", ")
    }

    /// An unverifiable chain on a direct `https` connection, explained: why the server's
    /// certificate fails (``TLSDiagnosis``), found with one more handshake that sends no request.
    /// Any other error, or a diagnosis that finds nothing, is returned as it is.
    static func explainingChain(_ error: DownloadError, request: TransportRequest, configuration: Configuration) async -> DownloadError {
        guard isUnverifiedChain(error), configuration.proxy.proxy(for: request.url) == nil,
              let endpoint = TransportEndpoint(request.url, configuration: configuration) else { return error }
        guard let reason = await TLSDiagnosis.explainUnverifiedChain(host: endpoint.host, address: endpoint.address, port: endpoint.port,
                                                                     timeout: timeAmount(configuration.connectTimeout)) else { return error }
        return .transport(url: error.url, "TLS: \(reason)", cause: error.cause)
    }
}

extension NetworkTransport {
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
