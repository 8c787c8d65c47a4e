import CofferTestSupport
@testable import DownloadPipeline
import Foundation
import Testing

/// Requests through real proxies started by the test: tinyproxy (CONNECT for https, absolute-form
/// requests for http, Basic authentication), microsocks (SOCKS5, with and without RFC 1929 user
/// name and password) and socat as the TLS front of an HTTPS proxy, each binding its outgoing
/// connections to another loopback address, so the origin server sees who connected.
@Suite("Proxies: tinyproxy, microsocks and an HTTPS proxy in front of a real server", .serialized, .timeLimit(.minutes(2)), .needs("tinyproxy", "microsocks"))
struct ProxyTests {
    typealias T = TransportSecurityTests

    @Test("https through tinyproxy's CONNECT tunnel: the origin sees the proxy, TLS and the client identity go end to end")
    func httpConnect() async throws {
        let proxy = try ProxyProcess.tinyproxy(bind: "127.0.0.3")
        defer { proxy.stop() }
        let identity = try TransportTrustStore.clientIdentity(file: T.fixture("client-identity.p12"), passphrase: T.passphrase)
        try await T.withServer(requireClientCertificate: true) { server in
            let settings = ProxySettings(proxy: try .init(url: "http://127.0.0.1:\(proxy.port)"))
            let result = try await T.fetch(server.url(), security: .init(trustRoots: try T.privateRoots(), clientIdentity: identity), proxy: settings)
            #expect(result.data == server.body)
            #expect(server.requests.map(\.peer) == ["127.0.0.3"])
            #expect(server.requests.first?.http2 == true)
            #expect(proxy.log.contains("CONNECT"), "\(proxy.log)")
        }
    }

    @Test("plain http through tinyproxy that allows CONNECT to port 443 only: sent in absolute form, as curl sends it")
    func plainHTTP() async throws {
        let proxy = try ProxyProcess.tinyproxy(bind: "127.0.0.3", connectPorts: [443])
        defer { proxy.stop() }
        try await IntegrationEnvironment.with { env in
            env.server.add("p.bin", .init(bytes: Array(repeating: 7, count: 10_000)))
            let settings = ProxySettings(proxy: try .init(url: "127.0.0.1:\(proxy.port)"))
            for _ in 0..<2 {
                let result = try await T.fetch(env.server.url("/files/p.bin"), security: .init(), proxy: settings)
                #expect(result.data.count == 10_000)
            }
            #expect(proxy.log.contains("GET http://127.0.0.1:\(env.server.port)/files/p.bin HTTP/1.1"), "\(proxy.log)")
            #expect(!proxy.log.contains("CONNECT 127.0.0.1"), "\(proxy.log)")
        }
    }

    @Test("tinyproxy with Basic authentication: credentials in the URL or set apart pass, none or wrong ones are refused in words")
    func httpProxyCredentials() async throws {
        let proxy = try ProxyProcess.tinyproxy(bind: "127.0.0.3", basicAuth: ("coffer", "pr0xy-s3cret"))
        defer { proxy.stop() }
        try await T.withServer { server in
            let security = TransportSecurity(trustRoots: try T.privateRoots())
            let inURL = ProxySettings(proxy: try .init(url: "http://coffer:pr0xy-s3cret@127.0.0.1:\(proxy.port)"))
            #expect(try await T.fetch(server.url(), security: security, proxy: inURL).data == server.body)
            var apart = try ProxySettings.Proxy(url: "http://127.0.0.1:\(proxy.port)")
            apart.credentials = ("coffer", "pr0xy-s3cret")
            #expect(try await T.fetch(server.url(), security: security, proxy: ProxySettings(proxy: apart)).data == server.body)
            let none = await #expect(throws: DownloadError.self) {
                _ = try await T.fetch(server.url(), security: security, proxy: ProxySettings(proxy: try .init(url: "http://127.0.0.1:\(proxy.port)")))
            }
            #expect(none?.reason.contains("requires authentication") == true, "\(String(describing: none))")
            #expect(none?.reason.contains("407") == true, "\(String(describing: none))")
            apart.credentials = ("coffer", "wrong")
            let wrong = await #expect(throws: DownloadError.self) {
                _ = try await T.fetch(server.url(), security: security, proxy: ProxySettings(proxy: apart))
            }
            #expect(wrong?.reason.contains("refused the user name and password") == true, "\(String(describing: wrong))")
            #expect(wrong?.description.contains("wrong") == false, "no secret in the message")
            #expect(server.requests.count == 2)
        }
    }

    @Test("https through microsocks (SOCKS5): the origin sees the proxy's address")
    func socks5() async throws {
        let proxy = try ProxyProcess.microsocks(bind: "127.0.0.4")
        defer { proxy.stop() }
        try await T.withServer { server in
            for scheme in ["socks5", "socks5h"] {
                let settings = ProxySettings(proxy: try .init(url: "\(scheme)://127.0.0.1:\(proxy.port)"))
                let result = try await T.fetch(server.url(host: "localhost"), security: .init(trustRoots: try T.privateRoots()), proxy: settings)
                #expect(result.data == server.body)
            }
            #expect(server.requests.map(\.peer) == ["127.0.0.4", "127.0.0.4"])
            // socks5 resolves the name here and sends the address; socks5h sends the name, as curl.
            let log = proxy.log
            #expect(log.contains("connected to 127.0.0.1:\(server.port)") || log.contains("connected to ::1:\(server.port)"), "\(log)")
            #expect(log.contains("connected to localhost:\(server.port)"), "\(log)")
        }
    }

    @Test("microsocks with -u/-P: RFC 1929 user name and password pass; none or wrong ones are refused in words")
    func socks5Credentials() async throws {
        let proxy = try ProxyProcess.microsocks(bind: "127.0.0.4", user: "coffer", password: "s0cks-s3cret")
        defer { proxy.stop() }
        try await T.withServer { server in
            let security = TransportSecurity(trustRoots: try T.privateRoots())
            let good = ProxySettings(proxy: try .init(url: "socks5h://coffer:s0cks-s3cret@127.0.0.1:\(proxy.port)"))
            #expect(try await T.fetch(server.url(), security: security, proxy: good).data == server.body)
            let none = await #expect(throws: DownloadError.self) {
                _ = try await T.fetch(server.url(), security: security, proxy: ProxySettings(proxy: try .init(url: "socks5h://127.0.0.1:\(proxy.port)")))
            }
            #expect(none?.reason.contains("requires authentication") == true, "\(String(describing: none))")
            let wrong = await #expect(throws: DownloadError.self) {
                _ = try await T.fetch(server.url(), security: security, proxy: ProxySettings(proxy: try .init(url: "socks5h://coffer:nope@127.0.0.1:\(proxy.port)")))
            }
            #expect(wrong?.reason.contains("refused the user name and password") == true, "\(String(describing: wrong))")
            #expect(wrong?.description.contains("nope") == false, "no secret in the message")
            #expect(server.requests.map(\.peer) == ["127.0.0.4"])
        }
    }

    @Test("an https:// proxy (socat's TLS in front of tinyproxy): https tunnelled TLS in TLS, http in absolute form", .needs("socat"))
    func httpsProxy() async throws {
        let proxy = try ProxyProcess.tinyproxy(bind: "127.0.0.3")
        defer { proxy.stop() }
        let front = try ProxyProcess.tlsFront(to: proxy.port, chain: T.fixture("server-chain.pem"), key: T.fixture("server.key.pem"))
        defer { front.stop() }
        let settings = ProxySettings(proxy: try .init(url: "https://127.0.0.1:\(front.port)"))
        try await T.withServer { server in
            let result = try await T.fetch(server.url(), security: .init(trustRoots: try T.privateRoots()), proxy: settings)
            #expect(result.data == server.body)
            #expect(server.requests.map(\.peer) == ["127.0.0.3"])
            #expect(server.requests.first?.http2 == true)
        }
        try await IntegrationEnvironment.with { env in
            env.server.add("q.bin", .init(bytes: Array(repeating: 9, count: 5_000)))
            let result = try await T.fetch(env.server.url("/files/q.bin"), security: .init(trustRoots: try T.privateRoots()), proxy: settings)
            #expect(result.data == Array(repeating: 9, count: 5_000))
            #expect(proxy.log.contains("GET http://127.0.0.1:\(env.server.port)/files/q.bin"), "\(proxy.log)")
        }
        // The proxy's certificate is verified like a server's: not trusted, refused.
        let untrusted = await #expect(throws: DownloadError.self) {
            _ = try await T.fetch(URL(string: "https://127.0.0.1:1/x")!, security: .init(), proxy: settings)
        }
        #expect(untrusted?.reason.contains("trusted root") == true, "\(String(describing: untrusted))")
    }

    @Test("no_proxy bypasses the proxy for matching hosts: the origin sees the client itself")
    func noProxy() async throws {
        let proxy = try ProxyProcess.microsocks(bind: "127.0.0.4")
        defer { proxy.stop() }
        try await T.withServer { server in
            let environment = ["https_proxy": "socks5h://127.0.0.1:\(proxy.port)", "no_proxy": "example.com, localhost"]
            let settings = try ProxySettings.fromEnvironment(environment)
            _ = try await T.fetch(server.url(host: "localhost"), security: .init(trustRoots: try T.privateRoots()), proxy: settings)
            _ = try await T.fetch(server.url(host: "127.0.0.1"), security: .init(trustRoots: try T.privateRoots()), proxy: settings)
            #expect(server.requests.map(\.peer) == ["127.0.0.1", "127.0.0.4"])
        }
    }
}

@Suite("ProxySettings: proxy URLs, curl's environment variables and no_proxy")
struct ProxySettingsTests {
    @Test("proxy URLs: schemes, default port, credentials kept out of descriptions and errors")
    func urls() throws {
        let plain = try ProxySettings.Proxy(url: "proxy.example:3128")
        #expect(plain.kind == .http && plain.host == "proxy.example" && plain.port == 3128)
        #expect(try ProxySettings.Proxy(url: "http://proxy.example").port == 1080)
        #expect(try ProxySettings.Proxy(url: "socks5h://[::1]:9050").host == "::1")
        let withCredentials = try ProxySettings.Proxy(url: "http://us%40er:s3cr%3At@proxy.example:8080")
        #expect(withCredentials.credentials?.user == "us@er")
        #expect(withCredentials.credentials?.password == "s3cr:t")
        #expect(!withCredentials.description.contains("s3cr"))
        let refused = #expect(throws: DownloadError.self) { _ = try ProxySettings.Proxy(url: "ftp://user:s3cret@proxy.example") }
        #expect(refused?.description.contains("s3cret") == false)
        #expect(refused?.description.contains("ftp") == true)
        let https = try ProxySettings.Proxy(url: "https://proxy.example")
        #expect(https.kind == .https && https.port == 443)
        #expect(try ProxySettings.Proxy(url: "socks5://h").kind == .socks5)
        #expect(try ProxySettings.Proxy(url: "socks5h://h").kind == .socks5h)
        #expect(throws: DownloadError.self) { _ = try ProxySettings.Proxy(url: "http://proxy.example/path") }
    }

    @Test("the environment: https_proxy, lower-case http_proxy only, all_proxy as fallback, no_proxy")
    func environment() throws {
        let settings = try ProxySettings.fromEnvironment(["HTTPS_PROXY": "http://a:1", "HTTP_PROXY": "http://evil:2", "ALL_PROXY": "socks5://c:3",
                                                          "NO_PROXY": " .internal , *.x ,"])
        #expect(settings.httpsProxy?.host == "a")
        #expect(settings.httpProxy?.host == "c")
        #expect(settings.noProxy == [".internal", "*.x"])
        #expect(try ProxySettings.fromEnvironment(["http_proxy": "http://b:2"]).httpProxy?.host == "b")
        #expect(try ProxySettings.fromEnvironment(["https_proxy": ""]).httpsProxy == nil)
        let bad = #expect(throws: DownloadError.self) { _ = try ProxySettings.fromEnvironment(["https_proxy": "gopher://x"]) }
        #expect(bad?.description.contains("https_proxy") == true)
    }

    @Test("no_proxy matches hosts and domain suffixes, case-insensitively; * matches all", arguments: [
        ("example.com", "example.com", true), ("example.com", "a.b.Example.COM", true), (".example.com", "a.example.com", true),
        ("example.com", "badexample.com", false), ("127.0.0.1", "127.0.0.1", true), ("*", "anything", true),
        ("[::1]", "[::1]", true), ("localhost", "localhost.", true), ("other", "example.com", false),
    ])
    func noProxy(entry: String, host: String, bypasses: Bool) {
        #expect(ProxySettings(httpsProxy: nil, httpProxy: nil, noProxy: [entry]).bypasses(host) == bypasses)
    }

    @Test("the proxy is chosen by scheme and skipped for no_proxy hosts")
    func choice() throws {
        let settings = try ProxySettings.fromEnvironment(["https_proxy": "http://s:1", "http_proxy": "http://p:2", "no_proxy": "direct.example"])
        #expect(settings.proxy(for: URL(string: "https://a.example/")!)?.host == "s")
        #expect(settings.proxy(for: URL(string: "http://a.example/")!)?.host == "p")
        #expect(settings.proxy(for: URL(string: "https://direct.example/x")!) == nil)
    }
}
