#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a request's connection goes: the URL's host (IPv6 brackets removed), the address the
/// transport connects to for it (``NetworkTransport/Configuration/addressOverrides``, or
/// the host itself) and the port (the scheme's default when the URL has none). Connection keys
/// and the TLS explanation connect by it.
struct TransportEndpoint {
    let host: String
    let address: String
    let port: Int

    /// `nil` for a URL without a host.
    init?(_ url: URL, configuration: NetworkTransport.Configuration) {
        guard var host = url.host, !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host
        address = configuration.addressOverrides[host.lowercased()] ?? host
        port = url.port ?? (url.scheme?.lowercased() == "http" ? 80 : 443)
    }
}
