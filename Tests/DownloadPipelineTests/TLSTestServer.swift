import CofferTestSupport
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import HummingbirdTLS
import NIOCore
import NIOSSL
import Synchronization

/// The request context of ``TLSTestServer``: Hummingbird's, plus the channel the request came on
/// (to tell HTTP/2 streams from HTTP/1 connections and see the peer's address).
struct ChannelRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// A TLS server (Hummingbird 2 over swift-nio-ssl) on 127.0.0.1 with Fixtures/tls/server.pem and
/// its intermediate: HTTP/2 with HTTP/1.1 fallback (ALPN) or HTTP/1.1 only, optionally requiring a
/// client certificate issued by Fixtures/tls/client-ca.pem. `GET /data` answers ``body`` (a
/// `Range: bytes=N-` request gets 206 and the rest); `GET /redirect` is a 302 to `/data`,
/// `GET /to-wronghost` a 302 to `https://wronghost.test:PORT/data`, `GET /loop` a 302 to itself, `GET /to?port=N` a 302 to `https://127.0.0.1:N/data`. Every request is recorded with its HTTP
/// version and the peer's address.
final class TLSTestServer: Sendable {
    struct Seen: Sendable {
        var path: String
        /// Whether the request came on an HTTP/2 stream.
        var http2: Bool
        /// The address of the connection's peer (the client, or the proxy in between).
        var peer: String
        var range: String?
        /// The request's authority (HTTP/1.1: its `Host` header).
        var authority: String? = nil
    }

    final class RequestLog: Sendable {
        let seen = Mutex<[Seen]>([])
    }

    let port: Int
    let body: [UInt8]
    private let log: RequestLog
    private let runner: Task<Void, any Error>

    private init(port: Int, body: [UInt8], log: RequestLog, runner: Task<Void, any Error>) {
        self.port = port
        self.body = body
        self.log = log
        self.runner = runner
    }

    static func fixture(_ name: String) -> String {
        ToolProcess.repositoryRoot.appendingPathComponent("Fixtures/tls/\(name)").path
    }

    /// Starts a server and waits until it listens.
    /// - Parameters:
    ///   - chainFile: The server's certificate chain (PEM), Fixtures/tls/server-chain.pem by default.
    ///   - keyFile: Its private key (PEM), Fixtures/tls/server.key.pem by default.
    static func start(http2: Bool = true, requireClientCertificate: Bool = false, bindHost: String = "127.0.0.1",
                      chainFile: String? = nil, keyFile: String? = nil,
                      body: [UInt8] = Array((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })) async throws -> TLSTestServer {
        let chain = try NIOSSLCertificate.fromPEMFile(chainFile ?? fixture("server-chain.pem")).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(file: keyFile ?? fixture("server.key.pem"), format: .pem)
        var tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        if requireClientCertificate {
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(fixture("client-ca.pem")))
        }
        let log = RequestLog()
        let router = Router(context: ChannelRequestContext.self)
        router.get("/redirect") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.location] = "/data"
            return Response(status: .found, headers: headers)
        }
        // A redirect to itself, for ever.
        router.get("/loop") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.location] = "/loop"
            return Response(status: .found, headers: headers)
        }
        // A redirect to another server on 127.0.0.1: `/to?port=N` → https://127.0.0.1:N/data.
        router.get("/to") { request, _ -> Response in
            var headers = HTTPFields()
            headers[.location] = "https://127.0.0.1:\(request.uri.queryParameters.get("port") ?? "0")/data"
            return Response(status: .found, headers: headers)
        }
        // A redirect to another host name on this server (the transport maps it to 127.0.0.1).
        router.get("/to-wronghost") { request, _ -> Response in
            let port = (request.head.authority ?? "").split(separator: ":").last.map(String.init) ?? ""
            var headers = HTTPFields()
            headers[.location] = "https://wronghost.test:\(port)/data"
            return Response(status: .found, headers: headers)
        }
        router.get("/data") { request, context -> Response in
            // An HTTP/2 stream channel is the child of the connection's channel, itself the child
            // of the listening socket; an HTTP/1 connection's channel is the listener's child.
            let isHTTP2 = context.channel.parent?.parent != nil
            let connection = isHTTP2 ? context.channel.parent! : context.channel
            let range = request.headers[.range]
            log.seen.withLock {
                $0.append(Seen(path: "/data", http2: isHTTP2, peer: connection.remoteAddress?.ipAddress ?? "?", range: range, authority: request.head.authority))
            }
            if let range, range.hasPrefix("bytes="), range.hasSuffix("-"), let start = Int(range.dropFirst(6).dropLast()), start < body.count {
                var headers = HTTPFields()
                headers[.eTag] = "\"v1\""
                headers[.contentRange] = "bytes \(start)-\(body.count - 1)/\(body.count)"
                return Response(status: .partialContent, headers: headers,
                                body: ResponseBody(byteBuffer: ByteBuffer(bytes: body[start...])))
            }
            var headers = HTTPFields()
            headers[.eTag] = "\"v1\""
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        let server: HTTPServerBuilder = http2 ? try .http2Upgrade(tlsConfiguration: tls) : try .tls(.http1(), tlsConfiguration: tls)
        let (port, runner) = try await LoopbackApplication.start(router: router, server: server, host: bindHost, what: "the TLS test server")
        return TLSTestServer(port: port, body: body, log: log, runner: runner)
    }

    func stop() async {
        runner.cancel()
        _ = await runner.result
    }

    func url(_ path: String = "/data", host: String = "127.0.0.1") -> URL { URL(string: "https://\(host):\(port)\(path)")! }

    var requests: [Seen] { log.seen.withLock { $0 } }
}
