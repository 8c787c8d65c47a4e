import CofferTestSupport
@testable import DownloadPipeline
import Foundation
import Testing

/// The host name check of every TLS path, against the real TLS server of ``TLSTestServer``,
/// whose certificate is for `DNS:localhost, IP:127.0.0.1`. The name `wronghost.test` is mapped to
/// 127.0.0.1 (curl's `--resolve`), so the connection reaches that server: NIOSSL's own check
/// accepted it there because the certificate's IP address equals the connected address. RFC
/// 6125 matches the URL's host alone, as curl does (`(60) SSL: no alternative certificate
/// subject name matches target host name 'wronghost.test'`).
@Suite("Transport security: the server's certificate must be for the URL's host, on every path", .serialized, .timeLimit(.minutes(2)))
struct HostNameCheckTests {
    typealias T = TransportSecurityTests

    static let wrongHost = ["wronghost.test": "127.0.0.1"]

    /// Fetches `url` once (no retries) with the wrong host mapped to 127.0.0.1.
    static func fetch(_ url: URL, security: TransportSecurity, proxy: ProxySettings = .direct) async throws -> DownloadResult {
        var configuration = NetworkTransport.Configuration(connectTimeout: LoopbackTimeouts.connect, idleReadTimeout: LoopbackTimeouts.idleRead)
        configuration.security = security
        configuration.proxy = proxy
        configuration.addressOverrides = wrongHost
        let transport = NetworkTransport(configuration: configuration)
        let downloader = Downloader(transport: transport, configuration: .init(totalTimeout: LoopbackTimeouts.total, retryPolicy: RetryPolicy(retries: 0)))
        do {
            let result = try await downloader.result(for: DownloadRequest(url: url))
            try await transport.shutdown()
            return result
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    /// Expects `body` to fail because the certificate is not for `host`, naming what it is for.
    static func expectRefused(_ host: String = "wronghost.test", _ body: () async throws -> DownloadResult,
                              sourceLocation: SourceLocation = #_sourceLocation) async {
        do {
            _ = try await body()
            Issue.record("the certificate for localhost and 127.0.0.1 was accepted for \(host)", sourceLocation: sourceLocation)
        } catch let error as DownloadError {
            #expect(error.code == .rejected, "\(error)", sourceLocation: sourceLocation)
            #expect(error.reason.contains("not valid for the") && error.reason.contains(" \(host): "), "\(error)", sourceLocation: sourceLocation)
            #expect(error.reason.contains("DNS:localhost") && error.reason.contains("IP Address:127.0.0.1"), "\(error)", sourceLocation: sourceLocation)
            #expect(!error.reason.contains("/checkouts/"), "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error: \(error)", sourceLocation: sourceLocation)
        }
    }

    static func wrongURL(_ server: TLSTestServer, _ path: String = "/data") -> URL {
        URL(string: "https://wronghost.test:\(server.port)\(path)")!
    }

    @Test("HTTP/2 (ALPN), HTTP/1.1 only, and an HTTP/1.1-only server: refused, and no request reached the server")
    func direct() async throws {
        for (serverHTTP2, version) in [(true, TransportSecurity.HTTPVersion.automatic), (true, .http1), (false, .automatic)] {
            try await T.withServer(http2: serverHTTP2) { server in
                await Self.expectRefused { try await Self.fetch(Self.wrongURL(server), security: .init(httpVersion: version, trustRoots: try T.privateRoots())) }
                #expect(server.requests.isEmpty, "\(server.requests.map(\.path))")
            }
        }
    }

    @Test("the names the certificate has still pass: localhost mapped like the wrong name, and 127.0.0.1 itself")
    func rightNamesPass() async throws {
        try await T.withServer { server in
            var configuration = NetworkTransport.Configuration(connectTimeout: LoopbackTimeouts.connect, idleReadTimeout: LoopbackTimeouts.idleRead)
            configuration.security = .init(trustRoots: try T.privateRoots())
            configuration.addressOverrides = ["localhost": "127.0.0.1"]
            let transport = NetworkTransport(configuration: configuration)
            let downloader = Downloader(transport: transport, configuration: .init(totalTimeout: LoopbackTimeouts.total, retryPolicy: RetryPolicy(retries: 0)))
            do {
                for host in ["localhost", "LOCALHOST", "127.0.0.1"] {
                    let result = try await downloader.result(for: DownloadRequest(url: server.url(host: host)))
                    #expect(result.data == server.body, "\(host)")
                }
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
            #expect(server.requests.count == 3)
        }
    }

    @Test("an IP address the certificate does not name is refused in words, not NIOSSL's 'Couldn't find <none>'")
    func ipAddressNotInCertificate() async throws {
        let server = try await TLSTestServer.start(bindHost: "127.0.0.2")
        do {
            await Self.expectRefused("127.0.0.2") { try await Self.fetch(server.url(host: "127.0.0.2"), security: .init(trustRoots: try T.privateRoots())) }
            #expect(server.requests.isEmpty)
        }
        await server.stop()
    }

    @Test("with the right pin: refused before the pinned connection carries the request")
    func pinned() async throws {
        try await T.withServer { server in
            let security = try PinningTests.security(pins: try PinningTests.pins("server"))
            await Self.expectRefused { try await Self.fetch(Self.wrongURL(server), security: security) }
            #expect(server.requests.isEmpty)
        }
    }

    @Test("after a redirect from the right name to the wrong one: the redirected request is refused")
    func redirected() async throws {
        try await T.withServer { server in
            await Self.expectRefused { try await Self.fetch(server.url("/to-wronghost", host: "localhost"), security: .init(trustRoots: try T.privateRoots())) }
            #expect(server.requests.isEmpty, "only the redirect was served: \(server.requests.map(\.path))")
        }
    }

    @Test("through tinyproxy's CONNECT tunnel and through microsocks (SOCKS5): refused end to end",
          .needs("tinyproxy", "microsocks"))
    func proxied() async throws {
        let http = try ProxyProcess.tinyproxy(bind: "127.0.0.3")
        defer { http.stop() }
        let socks = try ProxyProcess.microsocks(bind: "127.0.0.4")
        defer { socks.stop() }
        try await T.withServer { server in
            for proxy in ["http://127.0.0.1:\(http.port)", "socks5://127.0.0.1:\(socks.port)"] {
                let settings = ProxySettings(proxy: try .init(url: proxy))
                await Self.expectRefused { try await Self.fetch(Self.wrongURL(server), security: .init(trustRoots: try T.privateRoots()), proxy: settings) }
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test("a Host header of the caller's is refused on https (the certificate is checked against the URL's host)")
    func callerHostHeader() async throws {
        let transport = NetworkTransport()
        do {
            _ = try await transport.start(TransportRequest(url: URL(string: "https://wronghost.test:1/")!, headers: [("Host", "localhost")]))
            Issue.record("a Host header was accepted on https")
        } catch let error as DownloadError {
            #expect(error.code == .rejected && error.reason.contains("Host header"), "\(error)")
        }
        try await transport.shutdown()
    }

    @Test("ServerIdentity: authorities, and what the sentence names")
    func identity() throws {
        #expect(ServerIdentity.host(ofAuthority: "example.com:8443") == "example.com")
        #expect(ServerIdentity.host(ofAuthority: "[::1]:443") == "::1")
        #expect(ServerIdentity.host(ofAuthority: "[::1]") == "::1")
        #expect(ServerIdentity.host(ofAuthority: "example.com") == "example.com")
        let leaf = try TransportTrustStore.certificates(at: T.fixture("server.pem"))[0]
        #expect(ServerIdentity.mismatch(host: "localhost", leaf: leaf) == nil)
        #expect(ServerIdentity.mismatch(host: "127.0.0.1", leaf: leaf) == nil)
        #expect(ServerIdentity.mismatch(host: "localhost.", leaf: leaf) == nil)
        #expect(ServerIdentity.mismatch(host: "sub.localhost", leaf: leaf) != nil)
        #expect(ServerIdentity.mismatch(host: "::1", leaf: leaf)?.contains("IP address ::1") == true)
        #expect(ServerIdentity.mismatch(host: "localhost", leaf: nil) != nil)
        #expect(ServerIdentity.mismatch(host: "localhost", leaf: [0x30, 0x00]) != nil)
        #expect(ServerIdentity.mismatch(host: "bad_name!", leaf: leaf)?.contains("neither a host name nor an IP address") == true)
    }
}
