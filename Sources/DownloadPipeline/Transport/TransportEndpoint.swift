#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a request's connection goes: the URL's host (IPv6 brackets removed), the address the
/// transport connects to for it (``AsyncHTTPClientTransport/Configuration/addressOverrides``, or
/// the host itself) and the port (the scheme's default when the URL has none). The pinning
/// forwarder and the TLS and proxy explanations all connect by it.
struct TransportEndpoint {
    let host: String
    let address: String
    let port: Int

    /// `nil` for a URL without a host.
    init?(_ url: URL, configuration: AsyncHTTPClientTransport.Configuration) {
        guard var host = url.host, !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host
        address = configuration.addressOverrides[host.lowercased()] ?? host
        port = url.port ?? (url.scheme?.lowercased() == "http" ? 80 : 443)
    }

    /// `address:port`, an IPv6 address in brackets (a `CONNECT` target).
    var addressAndPort: String { address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)" }
}
