#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The ``HTTPTransport`` Coffer ships, built on swift-nio: HTTP/1.1 and HTTP/2 (ALPN), pooled
/// connections, redirects, proxies (HTTP, HTTPS, SOCKS5) and public-key pins, with the
/// connect and idle-read timeouts; the total timeout is the ``Downloader``'s.
///
/// Every TLS connection, direct, through a proxy or after a redirect, is checked before a
/// request is sent on it: the chain against the trust roots (BoringSSL), the certificate against
/// the URL's host (``ServerIdentity``, RFC 6125) and, when keys are pinned, the verified chain
/// against the pins. HTTP/1.1 connections are kept for the next request to the same origin; one
/// HTTP/2 connection carries every concurrent request to its origin. Bodies stream with
/// back-pressure: the task that reads a connection hands the body to the pipeline through a
/// bounded hand-off, so receiving overlaps decryption and writing and memory stays flat.
///
/// Call ``shutdown()`` before the last reference goes away: it waits for the connections to
/// close (a transport dropped without it closes them without waiting).
public final class NetworkTransport: HTTPTransport {
    /// The client's settings.
    public struct Configuration: Sendable {
        /// Time allowed to establish a connection: the TCP connect, then each wait for the peer
        /// during the proxy's and the TLS handshakes (time this process spends on its own steps
        /// does not count).
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

    /// The settings the transport was made with.
    public let configuration: Configuration
    /// What each connection is made with; `nil` when the TLS settings were refused.
    private let settings: ConnectionSetup.Settings?
    /// Why the TLS settings were refused (a trust root or identity NIOSSL does not accept):
    /// every request fails with it.
    private let setupError: DownloadError?
    private let pool: ConnectionPool

    /// Creates the transport (its connections run on the shared NIO event loop group).
    ///
    /// Settings the TLS library refuses (``validate(_:)`` reports them up front) make every
    /// request fail with that error.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        pool = ConnectionPool(maximumIdlePerKey: configuration.maximumConnectionsPerHost)
        do {
            settings = try Self.connectionSettings(configuration)
            setupError = nil
        } catch {
            settings = nil
            setupError = error as? DownloadError ?? .transport(url: nil, "TLS settings refused: \(error)")
        }
    }

    /// Checks that the TLS library accepts `configuration`'s trust roots and client identity.
    ///
    /// - Throws: ``DownloadError`` `.transport` naming what it refused.
    public static func validate(_ configuration: Configuration) throws {
        _ = try connectionSettings(configuration)
    }

    public func start(_ request: TransportRequest) async throws -> TransportResponse {
        let urlText = request.url.absoluteString
        if let setupError { throw DownloadError.transport(url: urlText, setupError.reason) }
        if request.url.scheme?.lowercased() == "https", let host = request.headers.first(where: { $0.name.lowercased() == "host" }) {
            // The certificate is checked against the URL's host: on https the Host must be it.
            throw DownloadError.rejected(url: urlText, "a Host header (\(host.value.prefix(100))) is not sent on https: the host is the URL's, which the server's certificate is checked against")
        }
        var current = request
        var visited: Set<String> = [urlText]
        var redirects = 0
        while true {
            let (response, exchange) = try await send(current)
            guard configuration.followsRedirects, let next = RedirectRule.next(after: response.head, to: current) else { return response }
            exchange.leave()
            redirects += 1
            if redirects > configuration.maximumRedirects {
                throw DownloadError.transport(url: urlText, "too many redirects: the server kept redirecting past the limit of \(configuration.maximumRedirects) redirects followed")
            }
            guard visited.insert(next.url.absoluteString).inserted else {
                throw DownloadError.transport(url: urlText, "redirect loop: the server redirected to a URL that this request had already visited (\(next.url.absoluteString.prefix(500)))")
            }
            current = next
        }
    }

    /// One request, on a pooled or new connection; a reused connection that turns out closed is
    /// replaced once.
    private func send(_ request: TransportRequest) async throws -> (TransportResponse, HTTPExchange) {
        let urlText = request.url.absoluteString
        guard let settings else { throw DownloadError.transport(url: urlText, "the transport has no TLS settings") }
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw DownloadError.invalidURL(urlText, "unsupported scheme")
        }
        guard let key = ConnectionKey(request.url, configuration: configuration) else { throw DownloadError.invalidURL(urlText, "no host") }
        let mayShare = key.secure && configuration.security.httpVersion == .automatic
        var fresh = false
        while true {
            do {
                let lease = try await pool.acquire(key, fresh: fresh, mayShare: mayShare, settings: settings)
                let exchange = HTTPExchange(head: RequestHead.make(request, key: key, http2: lease.isHTTP2),
                                            body: request.body == nil ? nil : request.bodyChunks(), url: urlText, reused: lease.reused)
                let head = try await exchange.response(submit: lease.submit)
                let response = DownloadResponse(url: request.url, status: Int(head.status.code),
                                                headers: head.headers.map { (name: $0.name, value: $0.value) })
                return (TransportResponse(head: response, body: TransportBody(ExchangeBody(exchange))), exchange)
            } catch is HTTPExchange.Stale where !fresh {
                fresh = true
            } catch {
                if Task.isCancelled { throw DownloadError.cancelled(url: urlText) }
                let translated = Self.explainingHandshake(Self.translate(error, url: urlText), request: request, security: configuration.security)
                throw await Self.explainingChain(translated, request: request, configuration: configuration)
            }
        }
    }

    /// A transport dropped without ``shutdown()`` (a caller that returned early or threw) closes
    /// its connections here, without waiting.
    deinit {
        pool.close()
    }

    public func shutdown() async throws {
        await pool.shutdown()
    }

    /// Maps NIO, TLS and connection-setup errors to ``DownloadError``.
    static func translate(_ error: any Error, url: String) -> DownloadError {
        if let error = error as? DownloadError { return error }
        if error is CancellationError { return .cancelled(url: url) }
        if let stale = error as? HTTPExchange.Stale {
            if let code = (stale.cause as? SendableError)?.code { return .connectionFailed(url: url, errno: code, cause: stale.cause) }
            return .connectionClosed(url: url, cause: stale.cause)
        }
        if let failure = error as? SetupFailure {
            // A refused pin or host name is a verdict on the server: another attempt meets it again.
            return failure.rejected ? .rejected(url: url, failure.description) : .transport(url: url, failure.description)
        }
        if error is ReadTimeoutHandler.Expired { return .timeout(url: url, .idleRead) }
        if case ChannelError.connectTimeout = error { return .timeout(url: url, .connect) }
        if error is ConnectionPool.Closed { return .transport(url: url, "the transport was shut down") }
        if let tls = translateTLS(error, url: url) { return tls }
        if error is HTTPExchange.ClosedEarly || error is HTTPExchange.Abandoned {
            return .connectionClosed(url: url, cause: SendableError(error))
        }
        if let malformed = error as? HTTPExchange.Malformed { return .transport(url: url, malformed.description, cause: malformed) }
        if let error = error as? HTTPParserError {
            if error == .invalidEOFState { return .connectionClosed(url: url, cause: error) }
            return .transport(url: url, "the server's answer is not valid HTTP (\(error))", cause: error)
        }
        if let error = error as? NIOConnectionError {
            if let failure = error.connectionErrors.first, let io = failure.error as? IOError {
                return .connectionFailed(url: url, errno: io.errnoCode, cause: io)
            }
            if error.dnsAError != nil || error.dnsAAAAError != nil || error.connectionErrors.isEmpty {
                return .transport(url: url, "could not resolve the host \(error.host)", cause: SendableError(error))
            }
            return .transport(url: url, "connection failed", cause: SendableError(error))
        }
        if let error = error as? IOError {
            return .connectionFailed(url: url, errno: error.errnoCode, cause: error)
        }
        if let error = error as? ChannelError {
            switch error {
            case .ioOnClosedChannel, .eof, .alreadyClosed, .outputClosed, .inputClosed:
                return .connectionClosed(url: url, cause: error)
            default:
                return .transport(url: url, "connection failed (\(error))", cause: error)
            }
        }
        return .transport(url: url, "connection failed: \(String(describing: error))", cause: SendableError(error))
    }
}

