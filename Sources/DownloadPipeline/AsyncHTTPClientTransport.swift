import AsyncHTTPClient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1

/// The ``HTTPTransport`` Coffer ships: one shared `HTTPClient` from swift-server/async-http-client.
///
/// Connect and idle-read timeouts and redirect following are the client's; the total timeout is
/// the ``Downloader``'s. Call ``shutdown()`` before the last reference goes away (the client
/// requires it).
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

        /// Creates settings: 10 s connect, 30 s idle read, up to 5 redirects, 16 connections per host.
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
    private let client: HTTPClient

    /// Creates the transport and its `HTTPClient` (on the shared NIO event loop group).
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        var clientConfiguration = HTTPClient.Configuration(
            redirectConfiguration: configuration.followsRedirects
                ? .follow(max: configuration.maximumRedirects, allowCycles: false) : .disallow,
            timeout: HTTPClient.Configuration.Timeout(connect: Self.timeAmount(configuration.connectTimeout),
                                                      read: Self.timeAmount(configuration.idleReadTimeout)),
            connectionPool: HTTPClient.Configuration.ConnectionPool(
                idleTimeout: .seconds(60),
                concurrentHTTP1ConnectionsPerHostSoftLimit: configuration.maximumConnectionsPerHost)
        )
        clientConfiguration.httpVersion = .http1Only
        clientConfiguration.connectionPool.retryConnectionEstablishment = configuration.retriesConnectionAttempts
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
    }

    public func start(_ request: TransportRequest) async throws -> TransportResponse {
        let urlText = request.url.absoluteString
        var clientRequest = HTTPClientRequest(url: urlText)
        clientRequest.method = HTTPMethod(rawValue: request.method)
        for header in request.headers {
            clientRequest.headers.add(name: header.name, value: header.value)
        }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(clientRequest, deadline: .distantFuture)
        } catch {
            throw Self.translate(error, url: urlText)
        }
        let head = DownloadResponse(
            url: response.url ?? request.url,
            status: Int(response.status.code),
            headers: response.headers.map { (name: $0.name, value: $0.value) }
        )
        let body = ClientBody.make(response.body, url: urlText)
        return TransportResponse(head: head, body: body)
    }

    public func shutdown() async throws {
        try await client.shutdown()
    }

    /// Maps async-http-client and NIO errors to ``DownloadError``.
    static func translate(_ error: any Error, url: String) -> DownloadError {
        if let error = error as? DownloadError { return error }
        if error is CancellationError { return .cancelled(url: url) }
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

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

/// The client's body as `[UInt8]` chunks, with errors translated, read ahead on its own task
/// (``ReadAheadBody``) so that receiving overlaps the pipeline's decryption and writing.
private enum ClientBody {
    static func make(_ body: HTTPClientResponse.Body, url: String) -> TransportBody {
        TransportBody(ReadAheadBody(base: body) { AsyncHTTPClientTransport.translate($0, url: url) })
    }
}
