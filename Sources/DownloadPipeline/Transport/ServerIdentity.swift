import AsymmetricKeys
import X509Kit

/// The host name check of a TLS connection: the server's leaf certificate must be for the host
/// of the URL (RFC 6125 through X509Kit's ``X509Kit/PeerIdentity``), and for nothing else.
///
/// NIOSSL's own check also accepts a certificate whose IP address SAN equals the address the
/// socket is connected to, even when a host name was asked for: a certificate for
/// `DNS:localhost, IP:127.0.0.1` then passes for `https://wronghost.test/` when that name resolves
/// to 127.0.0.1. Coffer turns NIOSSL's check off (`.noHostnameVerification`, the chain is still
/// verified) and makes this one on every TLS connection instead (``ConnectionSetup``: direct,
/// through a proxy, after a redirect, pinned or not), before any byte of a request is sent.
enum ServerIdentity {
    /// The host of an authority (`host`, `host:port`, `[v6]`, `[v6]:port`), without the port
    /// and the brackets.
    static func host(ofAuthority authority: String) -> String {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return authority }
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        let colons = authority.filter { $0 == ":" }.count
        if colons == 1, let colon = authority.firstIndex(of: ":") { return String(authority[..<colon]) }
        return authority
    }

    /// Why the certificate `leaf` (DER) is not for `host`, as the sentence of a
    /// ``DownloadError``; `nil` when it is.
    ///
    /// - Parameter host: The host of the URL (a name or an IP address, brackets removed).
    static func mismatch(host: String, leaf: [UInt8]?) -> String? {
        guard let leaf else { return "TLS: the server sent no certificate to check the host name \(host) against" }
        let certificate: Certificate
        do { certificate = try Certificate(derEncoded: leaf[...]) } catch {
            return "TLS: the server's certificate cannot be read to check the host name \(host) against it (\(error))"
        }
        let identity: PeerIdentity
        if let address = try? PeerIdentity(ipAddress: host) {
            identity = address
        } else if let name = try? PeerIdentity(host: host) {
            identity = name
        } else {
            return "TLS: '\(host.prefix(255))' is neither a host name nor an IP address a certificate can be checked for"
        }
        if identity.isMatched(by: certificate) { return nil }
        let names = certificate.extensions.subjectAltNames?.filter {
            switch $0 {
            case .dns, .ipAddress: true
            default: false
            }
        } ?? []
        let kind = if case .ip = identity { "IP address" } else { "host name" }
        let offered = names.isEmpty
            ? "it names no host name or IP address in its subject alternative names (its subject's common name is not used)"
            : "it is for \(names.prefix(20).map(\.description).joined(separator: ", "))\(names.count > 20 ? ", …" : "")"
        return "TLS: the server's certificate is not valid for the \(kind) \(host): \(offered); no request was sent"
    }
}
