import AsymmetricKeys
import AsyncHTTPClient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import Synchronization

/// The ``PinningForwarder``s of an ``AsyncHTTPClientTransport`` with pinned public keys, one per
/// `https` origin, made on first use, and the one `HTTPClient` that talks plain HTTP/1.1 to
/// them (no redirects followed, no proxy).
final class PinnedOrigins: Sendable {
    /// Where a pinned request goes instead of its `https` URL.
    struct Route {
        let forwarder: PinningForwarder
        /// `http+unix://` with the forwarder's socket and the request's path and query.
        let url: String
        /// The `Host` header the origin expects (`host` or `host:port`).
        let host: String
        let client: HTTPClient
    }

    private let forwarders = Mutex<[String: PinningForwarder]>([:])
    private let client = Mutex<HTTPClient?>(nil)

    func route(_ request: TransportRequest, configuration: AsyncHTTPClientTransport.Configuration,
               settings: HTTPClient.Configuration) async throws -> Route {
        let url = request.url
        let urlText = url.absoluteString
        if configuration.proxy.proxy(for: url) != nil {
            throw DownloadError.transport(url: urlText, "pinned public keys are not supported through a proxy (the pinned connection is made directly; use --no-proxy for this host)")
        }
        guard let endpoint = TransportEndpoint(url, configuration: configuration) else { throw DownloadError.invalidURL(urlText, "no host") }
        let (host, port) = (endpoint.host, endpoint.port)
        let key = "\(host.lowercased()):\(port)"
        let forwarder: PinningForwarder
        if let existing = forwarders.withLock({ $0[key] }) {
            forwarder = existing
        } else {
            let made = try await PinningForwarder.start(
                host: host, address: endpoint.address, port: port, pins: Set(configuration.security.pinnedPublicKeys),
                tls: AsyncHTTPClientTransport.tlsConfiguration(configuration.security),
                connectTimeout: AsyncHTTPClientTransport.timeAmount(configuration.connectTimeout))
            let (kept, spare) = forwarders.withLock { forwarders -> (PinningForwarder, PinningForwarder?) in
                if let raced = forwarders[key] { return (raced, made) }
                forwarders[key] = made
                return (made, nil)
            }
            if let spare { await spare.shutdown() }
            forwarder = kept
        }
        let bracketed = host.contains(":") ? "[\(host)]" : host
        // Never the https URL itself: this client does not pin.
        guard let local = URL(httpURLWithSocketPath: forwarder.socketPath, uri: Self.pathAndQuery(of: urlText)) else {
            throw DownloadError.invalidURL(urlText, "its path cannot be sent through the pinning forwarder")
        }
        return Route(forwarder: forwarder,
                     url: local.absoluteString,
                     host: url.port.map { "\(bracketed):\($0)" } ?? bracketed,
                     client: client(settings))
    }

    /// The path and query of `url` as written (percent-encoding kept), `/` when empty; the
    /// fragment dropped.
    static func pathAndQuery(of url: String) -> String {
        let characters = Array(url.utf8)
        var index = 0
        while index + 2 < characters.count, !(characters[index] == UInt8(ascii: ":") && characters[index + 1] == UInt8(ascii: "/")
                                                && characters[index + 2] == UInt8(ascii: "/")) {
            index += 1
        }
        index += 3
        let marks: Set<UInt8> = [UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")]
        while index < characters.count, !marks.contains(characters[index]) { index += 1 }
        var end = index
        while end < characters.count, characters[end] != UInt8(ascii: "#") { end += 1 }
        let tail = index < characters.count ? String(decoding: characters[index..<end], as: UTF8.self) : ""
        return tail.hasPrefix("/") ? tail : "/" + tail
    }

    private func client(_ settings: HTTPClient.Configuration) -> HTTPClient {
        client.withLock { client in
            if let client { return client }
            var settings = settings
            settings.httpVersion = .http1Only
            settings.redirectConfiguration = .disallow
            settings.proxy = nil
            let made = HTTPClient(eventLoopGroupProvider: .singleton, configuration: settings)
            client = made
            return made
        }
    }

    /// Dropped without ``shutdown()``: the client is shut down without waiting (AsyncHTTPClient
    /// traps in debug builds on a running client's deinit), and the forwarders close their listeners.
    deinit {
        if let client = client.withLock({ $0 }) { _ = client.shutdown() }
    }

    func shutdown() async throws {
        let client = client.withLock { client in
            defer { client = nil }
            return client
        }
        let all = forwarders.withLock { forwarders in
            defer { forwarders.removeAll() }
            return Array(forwarders.values)
        }
        // The forwarders (and their socket directories) go even when the client's shutdown fails.
        var failure: (any Error)?
        do { try await client?.shutdown() } catch { failure = error }
        for forwarder in all { await forwarder.shutdown() }
        if let failure { throw failure }
    }
}
