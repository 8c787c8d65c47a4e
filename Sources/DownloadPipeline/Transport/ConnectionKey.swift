#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which connections a request can use: the same origin reached the same way.
///
/// A request to an `https` origin, or through a SOCKS5 proxy, or through an HTTP proxy's `CONNECT`
/// tunnel, needs a connection to that origin. A plain `http` request through an HTTP proxy is
/// sent to the proxy in absolute form, so any connection to that proxy carries it: its key names
/// the proxy alone.
struct ConnectionKey: Hashable, Sendable {
    /// How the connection reaches the origin.
    enum Route: Hashable, Sendable {
        case direct
        /// A tunnel through the proxy (HTTP `CONNECT` or SOCKS5).
        case tunnel(ProxySettings.Proxy)
        /// Requests handed to an HTTP proxy in absolute form.
        case forward(ProxySettings.Proxy)
    }

    /// Whether the connection runs TLS with the origin (`https`).
    let secure: Bool
    /// The origin's host, lowercased, IPv6 brackets removed (empty for ``Route/forward(_:)``).
    let host: String
    /// The origin's port (0 for ``Route/forward(_:)``).
    let port: Int
    let route: Route

    /// The key of `url` under `configuration`'s proxies; `nil` for a URL without a host.
    init?(_ url: URL, configuration: NetworkTransport.Configuration) {
        guard let endpoint = TransportEndpoint(url, configuration: configuration) else { return nil }
        let secure = url.scheme?.lowercased() == "https"
        self.secure = secure
        switch configuration.proxy.proxy(for: url) {
        case let proxy? where !secure && (proxy.kind == .http || proxy.kind == .https):
            route = .forward(proxy)
            host = ""
            port = 0
        case let proxy?:
            route = .tunnel(proxy)
            host = endpoint.host.lowercased()
            port = endpoint.port
        case nil:
            route = .direct
            host = endpoint.host.lowercased()
            port = endpoint.port
        }
    }

    /// The proxy the connection goes through.
    var proxy: ProxySettings.Proxy? {
        switch route {
        case .direct: nil
        case .tunnel(let proxy), .forward(let proxy): proxy
        }
    }
}
