import AsymmetricKeys
import CofferTestSupport
@testable import DownloadPipeline
import Foundation
import Synchronization
import Testing

/// SPKI pinning (curl's `--pinnedpubkey`), checked on every TLS connection the transport makes
/// (direct, HTTP/2, after redirects, through proxies), against the real TLS server of ``TLSTestServer`` and the pins openssl computed for Fixtures/tls (facts.json).
@Suite("Transport security: public key pins checked on the connection itself", .serialized, .timeLimit(.minutes(2)))
struct PinningTests {
    static func pin(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: TLSTestServer.fixture("facts.json"))
        let facts = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        return try #require((facts?["pins"] as? [String: String])?[name])
    }

    static func pins(_ names: String...) throws -> [SPKIPin] {
        try TransportSecurity.pins(parsing: try names.map(pin).joined(separator: ";"))
    }

    static func security(pins: [SPKIPin], roots: String = "root-ca.pem", identity: ClientIdentity? = nil) throws -> TransportSecurity {
        let certificates = try TransportTrustStore.certificates(at: TLSTestServer.fixture(roots))
        return TransportSecurity(trustRoots: .init(certificates: certificates, includesSystemRoots: false),
                                 clientIdentity: identity, pinnedPublicKeys: pins)
    }

    @Test("the pin of the leaf, the intermediate or the root passes; so does a list where one pin matches",
          arguments: [["server"], ["intermediate-ca"], ["root-ca"], ["unrelated-ca", "client", "server"]])
    func matchingPin(names: [String]) async throws {
        let pins = try names.map { try Self.pins($0)[0] }
        try await TransportSecurityTests.withServer { server in
            let result = try await TransportSecurityTests.fetch(server.url("/data?x=1"), security: try Self.security(pins: pins))
            #expect(result.data == server.body)
            #expect(result.response.url == server.url("/data?x=1"))
            #expect(server.requests.count == 1)
            #expect(server.requests.first?.http2 == true, "pins do not keep HTTP/2 away")
            #expect(server.requests.first?.authority == "127.0.0.1:\(server.port)")
        }
    }

    @Test("with pins and HTTP/1.1 only, the request still goes over HTTP/1.1")
    func pinnedHTTP1() async throws {
        var security = try Self.security(pins: try Self.pins("server"))
        security.httpVersion = .http1
        try await TransportSecurityTests.withServer { server in
            let result = try await TransportSecurityTests.fetch(server.url("/data"), security: security)
            #expect(result.data == server.body)
            #expect(server.requests.map(\.http2) == [false])
        }
    }

    @Test("a wrong pin fails before any request reaches the server, naming the pins expected and seen")
    func wrongPin() async throws {
        try await TransportSecurityTests.withServer { server in
            let refused = await #expect(throws: DownloadError.self) {
                _ = try await TransportSecurityTests.fetch(server.url(), security: try Self.security(pins: try Self.pins("unrelated-ca", "client")))
            }
            let text = refused?.description ?? ""
            #expect(refused?.code == .rejected)
            #expect(refused.map(RetryPolicy.isRetryable) == false, "a pin mismatch is not retried")
            #expect(text.contains(server.url().absoluteString), "\(text)")
            #expect(text.contains("matches none of the pinned public keys"), "\(text)")
            for name in ["unrelated-ca", "client", "server", "intermediate-ca", "root-ca"] {
                let pin = try Self.pin(name)
                #expect(text.contains(pin), "\(name): \(text)")
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test("the right pin does not make an untrusted chain or a wrong host name acceptable")
    func verificationKept() async throws {
        try await TransportSecurityTests.withServer { server in
            let untrusted = await #expect(throws: DownloadError.self) {
                _ = try await TransportSecurityTests.fetch(server.url(), security: try Self.security(pins: try Self.pins("server"), roots: "unrelated-ca.pem"))
            }
            #expect(untrusted?.description.contains("trusted root") == true, "\(String(describing: untrusted))")
            #expect(server.requests.isEmpty)
        }
        let server = try await TLSTestServer.start(bindHost: "0.0.0.0")
        do {
            let wrongName = await #expect(throws: DownloadError.self) {
                _ = try await TransportSecurityTests.fetch(server.url(host: "127.0.0.2"), security: try Self.security(pins: try Self.pins("server")))
            }
            // Refused (not retried), in words that name the address and the certificate's names.
            #expect(wrongName?.code == .rejected)
            #expect(wrongName?.description.contains("not valid for the IP address 127.0.0.2: it is for IP Address:127.0.0.1, DNS:localhost") == true,
                    "\(String(describing: wrongName))")
            #expect(server.requests.isEmpty)
            // The same server by a name its certificate holds passes.
            do {
                let result = try await TransportSecurityTests.fetch(server.url(host: "localhost"), security: try Self.security(pins: try Self.pins("server")))
                #expect(result.data == server.body)
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("a resumed download (Range) and a 32 MiB body arrive intact over a pinned connection")
    func rangeAndLargeBody() async throws {
        do {
            let directory = try TestScratch.directory("pin-resume")
            defer { try? FileManager.default.removeItem(at: directory) }
            try await TransportSecurityTests.withServer { server in
                let part = directory.appendingPathComponent("out.part").path
                try Data(server.body[..<50_000]).write(to: URL(fileURLWithPath: part))
                try Data("coffer-resume 1\n\(server.url().absoluteString)\n\"v1\"\n".utf8).write(to: URL(fileURLWithPath: part + ".resume"))
                let result = try await TransportSecurityTests.fetch(server.url(), security: try Self.security(pins: try Self.pins("server")), resumeFile: part)
                #expect(result.data == server.body)
                #expect(server.requests.last?.range == "bytes=50000-")
            }
            let big = OpenSSLPayloads.plaintext(32 << 20, seed: 5)
            let server = try await TLSTestServer.start(body: big)
            do {
                let result = try await TransportSecurityTests.fetch(server.url(), security: try Self.security(pins: try Self.pins("intermediate-ca")))
                #expect(result.data.count == big.count)
                #expect(result.data == big)
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
        }
    }

    @Test("mutual TLS works with pins")
    func mutualTLS() async throws {
        do {
            let identity = try TransportTrustStore.clientIdentity(file: TLSTestServer.fixture("client-identity.pem"), passphrase: TransportSecurityTests.passphrase)
            try await TransportSecurityTests.withServer(requireClientCertificate: true) { server in
                let result = try await TransportSecurityTests.fetch(server.url(), security: try Self.security(pins: try Self.pins("server"), identity: identity))
                #expect(result.data == server.body)
                #expect(server.requests.count == 1)
            }
        }
    }

    @Test("a transport dropped without shutdown(), after direct and pinned requests, shuts down without trapping")
    func droppedWithoutShutdown() async throws {
        do {
        try await TransportSecurityTests.withServer { server in
            // A caller that throws before shutdown() must not bring the process down with it.
            for pins in [[], try Self.pins("root-ca")] {
                var configuration = NetworkTransport.Configuration(connectTimeout: LoopbackTimeouts.connect, idleReadTimeout: LoopbackTimeouts.idleRead)
                configuration.security = try Self.security(pins: pins)
                var transport: NetworkTransport? = NetworkTransport(configuration: configuration)
                let result = try await Downloader(transport: transport!).result(for: DownloadRequest(url: server.url("/data")))
                #expect(result.data == server.body)
                transport = nil
                #expect(transport == nil)
            }
            #expect(server.requests.count == 2)
        }
        }
    }

    @Test("concurrent pinned downloads share one checked HTTP/2 connection")
    func concurrent() async throws {
        do {
            try await TransportSecurityTests.withServer { server in
                let urls = (0..<6).map { server.url("/data?n=\($0)") }
                let results = try await TransportSecurityTests.fetchConcurrently(urls, security: try Self.security(pins: try Self.pins("root-ca")))
                #expect(results.count == 6 && results.allSatisfy { $0 == server.body })
                #expect(server.requests.count == 6)
                #expect(server.requests.allSatisfy { $0.http2 })
            }
        }
    }

    @Test("with pins a redirect is followed, and the pin is checked on the redirected connection too")
    func redirect() async throws {
        try await TransportSecurityTests.withServer { server in
            let result = try await TransportSecurityTests.fetch(server.url("/redirect"), security: try Self.security(pins: try Self.pins("server")))
            #expect(result.data == server.body)
            #expect(result.response.url == server.url("/data"))
        }
        // A redirect to a host whose certificate is fine but whose key is not pinned: refused
        // before the redirected request is sent.
        let directory = try TestScratch.directory("pin-redirect")
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try TransportErrorMessageTests.makeServerCertificate(in: directory, days: 30)
        let pinned = try await TLSTestServer.start()
        let other = try await TLSTestServer.start(chainFile: files.chain, keyFile: files.key)
        let pins = try Self.pins("server")
        let error = await #expect(throws: DownloadError.self) {
            _ = try await TransportSecurityTests.fetch(pinned.url("/to?port=\(other.port)"), security: try Self.security(pins: pins))
        }
        #expect(error?.code == .rejected, "\(String(describing: error))")
        #expect(error?.description.contains("matches none of the pinned public keys") == true, "\(String(describing: error))")
        #expect(other.requests.isEmpty, "nothing was sent to the unpinned server")
        await pinned.stop()
        await other.stop()
    }

    @Test("pins parse as curl spells them; anything else is refused by name")
    func parsing() throws {
        let pins = try TransportSecurity.pins(parsing: "\(try Self.pin("server")); \(try Self.pin("root-ca"))")
        #expect(pins.count == 2 && pins.allSatisfy { $0.digest.count == 32 })
        for bad in ["", "sha256//", "sha1//q1DdDgvcwDrPuV++utb0861D3BntxTKHQkUeT3tMePk=", "sha256//AAAA", "\(try Self.pin("server"));"] {
            #expect(throws: DownloadError.self, "\(bad)") { _ = try TransportSecurity.pins(parsing: bad) }
        }
        #expect(RequestHead.pathAndQuery(of: "https://h:1") == "/")
        #expect(RequestHead.pathAndQuery(of: "https://h:1?q=1#f") == "/?q=1")
        #expect(RequestHead.pathAndQuery(of: "https://u@h/a%20b/c?x=%2F#frag") == "/a%20b/c?x=%2F")
    }

    @Test("an origin that refuses the connection is reported as such")
    func refusedOrigin() async throws {
        let error = await #expect(throws: DownloadError.self) {
            _ = try await TransportSecurityTests.fetch(URL(string: "https://127.0.0.1:1/x")!, security: try Self.security(pins: try Self.pins("server")))
        }
        #expect(error?.code == .transport, "\(String(describing: error))")
        #expect(error?.description.contains("https://127.0.0.1:1/x") == true, "\(String(describing: error))")
        #expect(error?.description.contains("refused") == true, "\(String(describing: error))")
    }

    @Test("an origin that accepts the connection but never answers the TLS handshake: a connect timeout, not the idle-read timeout")
    func silentOrigin() async throws {
        let listener = try LoopbackListener()
        listener.start { listener, _, _ in
            while !listener.isStopping { usleep(10_000) }
        }
        var configuration = NetworkTransport.Configuration(connectTimeout: .seconds(1), idleReadTimeout: .seconds(30))
        configuration.security = try Self.security(pins: try Self.pins("server"))
        let transport = NetworkTransport(configuration: configuration)
        let started = ContinuousClock.now
        do {
            _ = try await transport.start(TransportRequest(url: URL(string: "https://127.0.0.1:\(listener.port)/x")!))
            Issue.record("a server that never answered the handshake gave a response")
        } catch let error as DownloadError {
            #expect(error.code == .timeout && error.timeoutKind == .connect, "\(error)")
        }
        #expect(ContinuousClock.now - started < .seconds(20), "bounded by the connect timeout, not the idle-read timeout")
        try await transport.shutdown()
        listener.stop()
        await listener.waitUntilClosed()
    }

    @Test("pins through tinyproxy's CONNECT tunnel and through microsocks: checked end to end", .needs("tinyproxy", "microsocks"))
    func throughProxies() async throws {
        let http = try ProxyProcess.tinyproxy(bind: "127.0.0.3")
        defer { http.stop() }
        let socks = try ProxyProcess.microsocks(bind: "127.0.0.4")
        defer { socks.stop() }
        try await TransportSecurityTests.withServer { server in
            for proxy in ["http://127.0.0.1:\(http.port)", "socks5h://127.0.0.1:\(socks.port)"] {
                let settings = ProxySettings(proxy: try .init(url: proxy))
                let result = try await TransportSecurityTests.fetch(server.url(), security: try Self.security(pins: try Self.pins("server")), proxy: settings)
                #expect(result.data == server.body, "\(proxy)")
                let refused = await #expect(throws: DownloadError.self, "\(proxy)") {
                    _ = try await TransportSecurityTests.fetch(server.url(), security: try Self.security(pins: try Self.pins("unrelated-ca")), proxy: settings)
                }
                #expect(refused?.code == .rejected, "\(proxy): \(String(describing: refused))")
            }
            #expect(server.requests.map(\.peer) == ["127.0.0.3", "127.0.0.4"])
        }
    }
}
