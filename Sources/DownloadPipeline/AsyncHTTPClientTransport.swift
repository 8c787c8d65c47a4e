import AsyncHTTPClient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization

/// The ``HTTPTransport`` Coffer ships: one shared `HTTPClient` from swift-server/async-http-client.
///
/// Connect and idle-read timeouts and redirect following are the client's; the total timeout is
/// the ``Downloader``'s. Call ``shutdown()`` before the last reference goes away: it waits for the
/// connections to close (a transport dropped without it shuts its clients down without waiting).
public final class AsyncHTTPClientTransport: HTTPTransport {
    /// The client's settings.
    public struct Configuration: Sendable {
        /// Time allowed to establish a connection.
        public var connectTimeout: Duration
        /// Time allowed without any byte arriving (head or body).
        public var idleReadTimeout: Duration
        /// Whether 3xx redirects are followed.
        public var followsRedirects: Bool
        /// The most redirects followed for one request.
        public var maximumRedirects: Int
        /// The most HTTP/1 connections kept per host; keep it at least the downloader's concurrency.
        public var maximumConnectionsPerHost: Int
        /// Whether a failed connection attempt (refused, unreachable) is retried until the connect
        /// timeout. Off by default: a refused connection fails at once.
        public var retriesConnectionAttempts: Bool
        /// HTTP version, trust roots and client identity (``TransportSecurity``).
        public var security = TransportSecurity()
        /// The proxies requests go through (default: none; ``ProxySettings/fromEnvironment(_:)``
        /// reads curl's variables).
        public var proxy = ProxySettings.direct
        /// Host names connected to at another address (an IP address or a name), as curl's
        /// `--resolve`: the request, its TLS server name and the certificate check stay those of
        /// the URL's host. Keys are lowercase host names; every port of the host is affected.
        public var addressOverrides: [String: String] = [:]

        /// Creates settings: 10 s connect, 30 s idle read, up to 5 redirects, 16 connections per host,
        /// HTTP/2 with HTTP/1.1 fallback, the system's trust store, no proxy.
        public init(connectTimeout: Duration = .seconds(10), idleReadTimeout: Duration = .seconds(30),
                    followsRedirects: Bool = true, maximumRedirects: Int = 5, maximumConnectionsPerHost: Int = 16,
                    retriesConnectionAttempts: Bool = false) {
            self.connectTimeout = connectTimeout
            self.idleReadTimeout = idleReadTimeout
            self.followsRedirects = followsRedirects
            self.maximumRedirects = maximumRedirects
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.retriesConnectionAttempts = retriesConnectionAttempts
        }
    }

    /// The settings the client was made with.
    public let configuration: Configuration
    /// One `HTTPClient` per proxy in use (the key `nil`: direct), made on first use.
    private let clients: Mutex<[ProxySettings.Proxy?: HTTPClient]>
    private let directConfiguration: HTTPClient.Configuration
    /// Why the TLS settings were refused (a trust root or identity NIOSSL does not accept):
    /// every request fails with it.
    private let setupError: DownloadError?
    /// With pinned public keys: the forwarders, one per `https` origin (`host:port`), and the
    /// HTTP/1.1 client that talks to them (``PinningForwarder``).
    private let pinning = PinnedOrigins()

    /// Creates the transport and its `HTTPClient` (on the shared NIO event loop group).
    ///
    /// Settings the TLS library refuses (``validate(_:)`` reports them up front) make every
    /// request fail with that error.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        var setupError: DownloadError?
        var settings: HTTPClient.Configuration
        do {
            settings = try Self.clientConfiguration(configuration)
        } catch {
            setupError = error as? DownloadError ?? .transport(url: nil, "TLS settings refused: \(error)")
            var fallback = configuration
            fallback.security = TransportSecurity(httpVersion: configuration.security.httpVersion)
            settings = (try? Self.clientConfiguration(fallback)) ?? HTTPClient.Configuration()
        }
        self.setupError = setupError
        directConfiguration = settings
        clients = Mutex([:])
    }

    /// Checks that the TLS library accepts `configuration`'s trust roots and client identity.
    ///
    /// - Throws: ``DownloadError`` `.transport` naming what it refused.
    public static func validate(_ configuration: Configuration) throws {
        _ = try clientConfiguration(configuration)
    }

    /// The client for `url`: direct, or through its proxy.
    private func client(for url: URL) -> HTTPClient {
        let proxy = configuration.proxy.proxy(for: url)
        return clients.withLock { clients in
            if let client = clients[proxy] { return client }
            let client = HTTPClient(eventLoopGroupProvider: .singleton,
                                    configuration: Self.applying(proxy, to: directConfiguration))
            clients[proxy] = client
            return client
        }
    }

    public func start(_ request: TransportRequest) async throws -> TransportResponse {
        let urlText = request.url.absoluteString
        if let setupError { throw DownloadError.transport(url: urlText, setupError.reason) }
        let secure = request.url.scheme?.lowercased() == "https"
        let pinned = !configuration.security.pinnedPublicKeys.isEmpty && secure
        if secure, let host = request.headers.first(where: { $0.name.lowercased() == "host" }) {
            // The certificate is checked against the Host a request carries (HostIdentityGate):
            // on https it must be the URL's own.
            throw DownloadError.rejected(url: urlText, "a Host header (\(host.value.prefix(100))) is not sent on https: the host is the URL's, which the server's certificate is checked against")
        }
        var clientRequest = HTTPClientRequest(url: urlText)
        clientRequest.method = HTTPMethod(rawValue: request.method)
        for header in request.headers {
            clientRequest.headers.add(name: header.name, value: header.value)
        }
        if let body = request.body {
            // Streamed with its length (Content-Length), chunked when unknown; files are read as sent.
            clientRequest.body = .stream(RequestBodyBuffers(chunks: request.bodyChunks()),
                                         length: body.length.map { .known(Int64($0)) } ?? .unknown)
        }
        let response: HTTPClientResponse
        var forwarder: PinningForwarder?
        do {
            if pinned {
                let route = try await pinning.route(request, configuration: configuration, settings: directConfiguration)
                forwarder = route.forwarder
                clientRequest.url = route.url
                if !clientRequest.headers.contains(name: "host") { clientRequest.headers.add(name: "Host", value: route.host) }
                response = try await route.client.execute(clientRequest, deadline: .distantFuture)
            } else {
                response = try await client(for: request.url).execute(clientRequest, deadline: .distantFuture)
            }
        } catch {
            if let failure = forwarder?.takeFailure(url: urlText) {
                throw await Self.explainingChain(failure, request: request, configuration: configuration)
            }
            let translated = Self.explainingHandshake(Self.translate(error, url: urlText), request: request, security: configuration.security)
            throw await explainingProxy(Self.explainingChain(translated, request: request, configuration: configuration),
                                             request: request)
        }
        if pinned, configuration.followsRedirects, (300..<400).contains(Int(response.status.code)), response.status.code != 304,
           let location = response.headers.first(name: "location") {
            throw DownloadError.transport(url: urlText, "the server redirects to \(location.prefix(500)); redirects are not followed when public keys are pinned (fetch that URL itself)")
        }
        let head = DownloadResponse(
            url: pinned ? request.url : (response.url ?? request.url),
            status: Int(response.status.code),
            headers: response.headers.map { (name: $0.name, value: $0.value) }
        )
        let body = ClientBody.make(response.body, url: urlText)
        return TransportResponse(head: head, body: body)
    }

    /// A transport dropped without ``shutdown()`` (a caller that returned early or threw) shuts its
    /// clients down here, without waiting: AsyncHTTPClient traps in debug builds when a client that
    /// is still running is deinitialized, and an early exit of the caller must not crash the process.
    deinit {
        for client in clients.withLock({ Array($0.values) }) {
            _ = client.shutdown()
        }
    }

    public func shutdown() async throws {
        let all = clients.withLock { clients in
            defer { clients.removeAll() }
            return Array(clients.values)
        }
        var failure: (any Error)?
        for client in all {
            do { try await client.shutdown() } catch { failure = failure ?? error }
        }
        do { try await pinning.shutdown() } catch { failure = failure ?? error }
        if let failure { throw failure }
    }

    /// A tunnel the HTTP proxy refused, with the status it answered (``ProxyDiagnosis``); any
    /// other error as it is.
    private func explainingProxy(_ error: DownloadError, request: TransportRequest) async -> DownloadError {
        guard let cause = error.cause as? HTTPClientError, cause == .invalidProxyResponse,
              let proxy = configuration.proxy.proxy(for: request.url), proxy.kind == .http,
              let endpoint = TransportEndpoint(request.url, configuration: configuration) else { return error }
        let target = endpoint.addressAndPort
        let status = await ProxyDiagnosis.connectStatus(proxy: proxy, target: target, timeout: Self.timeAmount(configuration.connectTimeout))
        return .transport(url: error.url, ProxyDiagnosis.refusedTunnel(proxy: proxy, target: target, status: status), cause: cause)
    }

    /// Maps async-http-client and NIO errors to ``DownloadError``.
    static func translate(_ error: any Error, url: String) -> DownloadError {
        if let error = error as? DownloadError { return error }
        if error is CancellationError { return .cancelled(url: url) }
        if let tls = translateTLS(error, url: url) { return tls }
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout, .getConnectionFromPoolTimeout, .tlsHandshakeTimeout:
                return .timeout(url: url, .connect)
            case .readTimeout:
                return .timeout(url: url, .idleRead)
            case .deadlineExceeded:
                return .timeout(url: url, .total)
            case .cancelled:
                return .cancelled(url: url)
            case .invalidURL, .emptyHost, .emptyScheme:
                return .invalidURL(url, String(describing: error))
            case .remoteConnectionClosed:
                return .connectionClosed(url: url, cause: error)
            case .redirectCycleDetected:
                return .transport(url: url, "redirect loop: the server redirected to a URL that this request had already visited", cause: error)
            case .redirectLimitReached:
                return .transport(url: url, "too many redirects: the server kept redirecting past the limit on redirects followed", cause: error)
            case .proxyAuthenticationRequired:
                return .transport(url: url, "the proxy requires authentication (407 Proxy Authentication Required): give the user and password in the proxy URL (http://USER:PASSWORD@HOST:PORT)", cause: error)
            case .invalidProxyResponse:
                return .transport(url: url, "the proxy refused to open a tunnel (CONNECT): its answer was not 200", cause: error)
            case .httpProxyHandshakeTimeout, .socksHandshakeTimeout:
                return .transport(url: url, "the proxy did not complete its handshake in time", cause: error)
            default:
                if String(describing: error).contains("unsupportedScheme") {
                    return .invalidURL(url, "unsupported scheme")
                }
                return .transport(url: url, "HTTP client error: \(error)", cause: error)
            }
        }
        if let error = error as? HTTPParserError, error == .invalidEOFState {
            return .connectionClosed(url: url, cause: error)
        }
        if let error = error as? IOError {
            return .connectionFailed(url: url, errno: error.errnoCode, cause: error)
        }
        return .transport(url: url, "connection failed: \(String(describing: error))", cause: error)
    }
}

/// The client's body as `[UInt8]` chunks, with errors translated, read ahead on its own task
/// (``ReadAheadBody``) so that receiving overlaps the pipeline's decryption and writing.
private enum ClientBody {
    static func make(_ body: HTTPClientResponse.Body, url: String) -> TransportBody {
        TransportBody(ReadAheadBody(base: body) { AsyncHTTPClientTransport.translate($0, url: url) })
    }
}

/// A request body's chunks as the `ByteBuffer`s the client sends.
private struct RequestBodyBuffers: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let chunks: TransportBody

    func makeAsyncIterator() -> Iterator { Iterator(base: chunks.makeAsyncIterator()) }

    struct Iterator: AsyncIteratorProtocol {
        var base: TransportBody.Iterator

        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try await base.next() else { return nil }
            return ByteBuffer(bytes: chunk)
        }
    }
}
