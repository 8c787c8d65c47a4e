import AsymmetricKeys
import CofferTestSupport
import CryptoOpenSSL
@testable import DownloadPipeline
import Foundation
import Testing

/// NetworkTransport against a real TLS server on 127.0.0.1 (``TLSTestServer``) with the
/// private CA, server and client identities of Fixtures/tls (made by `tools/make-fixtures tls`).
@Suite("Transport security: private CAs, client identities and HTTP/2 against a real TLS server", .serialized, .timeLimit(.minutes(2)))
struct TransportSecurityTests {
    static func fixture(_ name: String) -> String { TLSTestServer.fixture(name) }
    static let passphrase: PassphraseProvider = { _ in SecureBytes(Array("coffer-test-pass".utf8)) }

    static func privateRoots() throws -> TransportSecurity.TrustRoots {
        .init(certificates: try TransportTrustStore.certificates(at: fixture("root-ca.pem")), includesSystemRoots: false)
    }

    /// Fetches `url` once with `security` (and `proxy`), no retries.
    static func fetch(_ url: URL, security: TransportSecurity, proxy: ProxySettings = .direct,
                      resumeFile: String? = nil) async throws -> DownloadResult {
        var configuration = NetworkTransport.Configuration(connectTimeout: LoopbackTimeouts.connect, idleReadTimeout: LoopbackTimeouts.idleRead)
        configuration.security = security
        configuration.proxy = proxy
        let transport = NetworkTransport(configuration: configuration)
        let downloader = Downloader(transport: transport, configuration: .init(totalTimeout: LoopbackTimeouts.total, retryPolicy: RetryPolicy(retries: 0)))
        do {
            let result = try await downloader.result(for: DownloadRequest(url: url, resumeFile: resumeFile))
            try await transport.shutdown()
            return result
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    /// Downloads `urls` at once through one transport and downloader (no retries), in completion
    /// order; the transport is shut down either way.
    static func fetchConcurrently(_ urls: [URL], security: TransportSecurity) async throws -> [[UInt8]] {
        var configuration = NetworkTransport.Configuration(connectTimeout: LoopbackTimeouts.connect, idleReadTimeout: LoopbackTimeouts.idleRead)
        configuration.security = security
        let transport = NetworkTransport(configuration: configuration)
        let downloader = Downloader(transport: transport, configuration: .init(totalTimeout: LoopbackTimeouts.total, retryPolicy: RetryPolicy(retries: 0)))
        do {
            let results = try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for url in urls { group.addTask { try await downloader.result(for: DownloadRequest(url: url)).data } }
                var all: [[UInt8]] = []
                for try await data in group { all.append(data) }
                return all
            }
            try await transport.shutdown()
            return results
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    static func withServer<T>(http2: Bool = true, requireClientCertificate: Bool = false,
                              _ body: (TLSTestServer) async throws -> T) async throws -> T {
        let server = try await TLSTestServer.start(http2: http2, requireClientCertificate: requireClientCertificate)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    @Test("a private CA from a PEM file, a hashed directory or a PKCS#12 file is trusted; the system store alone refuses it",
          arguments: ["root-ca.pem", "ca-dir", "root-ca.p12"])
    func privateCA(source: String) async throws {
        let roots = try TransportTrustStore.certificates(at: Self.fixture(source), passphrase: Self.passphrase)
        try await Self.withServer { server in
            let result = try await Self.fetch(server.url(), security: .init(trustRoots: .init(certificates: roots, includesSystemRoots: false)))
            #expect(result.data == server.body)
            let withSystem = try await Self.fetch(server.url(host: "localhost"), security: .init(trustRoots: .init(certificates: roots, includesSystemRoots: true)))
            #expect(withSystem.data == server.body)
            let refused = await #expect(throws: DownloadError.self) {
                _ = try await Self.fetch(server.url(), security: .init())
            }
            #expect(refused?.code == .transport)
            #expect(refused?.description.contains("does not lead to a trusted root") == true, "\(String(describing: refused))")
        }
    }

    @Test("an unrelated CA does not make the server trusted")
    func unrelatedCA() async throws {
        let roots = try TransportTrustStore.certificates(at: Self.fixture("unrelated-ca.pem"))
        try await Self.withServer { server in
            let refused = await #expect(throws: DownloadError.self) {
                _ = try await Self.fetch(server.url(), security: .init(trustRoots: .init(certificates: roots, includesSystemRoots: false)))
            }
            #expect(refused?.description.contains("trusted root") == true, "\(String(describing: refused))")
        }
    }

    @Test("a server that requires a client certificate refuses a client without one, with a clear error")
    func clientCertificateRequired() async throws {
        try await Self.withServer(requireClientCertificate: true) { server in
            let refused = await #expect(throws: DownloadError.self) {
                _ = try await Self.fetch(server.url(), security: .init(trustRoots: try Self.privateRoots()))
            }
            #expect(refused?.code == .transport)
            let text = refused?.description ?? ""
            #expect(text.contains("TLS") && text.contains("client certificate"), "\(text) / \(String(describing: refused?.cause))")
            #expect(server.requests.isEmpty)
        }
    }

    @Test("the client identity from PKCS#12 (AES-256, legacy), a PEM key+chain file, or key and chain apart passes mutual TLS",
          arguments: ["client-identity.p12", "client-identity-legacy.p12", "client-identity.pem", "apart"])
    func clientIdentity(source: String) async throws {
        let identity = source == "apart"
            ? try TransportTrustStore.clientIdentity(key: Self.fixture("client.key-encrypted.pem"), certificates: Self.fixture("client-chain.pem"),
                                                     passphrase: Self.passphrase)
            : try TransportTrustStore.clientIdentity(file: Self.fixture(source), passphrase: Self.passphrase)
        let facts = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.fixture("facts.json")))) as? [String: Any]
        let pins = facts?["pins"] as? [String: String]
        #expect("sha256//" + identity.leafPin.base64 == pins?["client"])
        #expect(identity.certificateChain.count == 2)
        try await Self.withServer(requireClientCertificate: true) { server in
            let result = try await Self.fetch(server.url(), security: .init(trustRoots: try Self.privateRoots(), clientIdentity: identity))
            #expect(result.data == server.body)
            #expect(server.requests.count == 1)
        }
    }

    @Test("a client identity file without a key, or with a key but no matching certificate, is refused by name")
    func identityErrors() throws {
        let noKey = #expect(throws: DownloadError.self) {
            _ = try TransportTrustStore.clientIdentity(file: Self.fixture("client-chain.pem"), passphrase: Self.passphrase)
        }
        #expect(noKey?.description.contains("client-chain.pem") == true)
        #expect(noKey?.description.contains("no private key") == true)
        let wrongCertificate = #expect(throws: DownloadError.self) {
            _ = try TransportTrustStore.clientIdentity(key: Self.fixture("client.key.pem"), certificates: Self.fixture("server.pem"), passphrase: nil)
        }
        #expect(wrongCertificate?.description.contains("no certificate for its private key") == true)
        let noPassphrase = #expect(throws: DownloadError.self) {
            _ = try TransportTrustStore.clientIdentity(file: Self.fixture("client-identity.p12"), passphrase: nil)
        }
        #expect(noPassphrase?.description.contains("coffer-test-pass") == false)
    }

    @Test("an identity or trust-store file past the 16 MiB cap is refused by name, the cap applied while reading")
    func oversizedFiles() throws {
        let directory = try TestScratch.directory("tls-oversized")
        // A PEM key followed by zeros: a file that grows past the cap, as /dev/zero or a FIFO would.
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.fixture("client.key.pem"))))
        bytes += [UInt8](repeating: 0x0A, count: TransportTrustStore.maximumFileSize)
        let path = directory.appendingPathComponent("huge.pem").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let identity = #expect(throws: DownloadError.self) {
            _ = try TransportTrustStore.clientIdentity(file: path, passphrase: nil)
        }
        #expect(identity?.description.contains("huge.pem") == true)
        #expect(identity?.description.contains("larger than \(TransportTrustStore.maximumFileSize) bytes") == true)
        let roots = #expect(throws: DownloadError.self) {
            _ = try TransportTrustStore.certificates(at: path)
        }
        #expect(roots?.description.contains("larger than \(TransportTrustStore.maximumFileSize) bytes") == true)
    }

    @Test("HTTP/2 is negotiated by ALPN and used; --http1.1 keeps HTTP/1.1; an HTTP/1.1-only server still works")
    func http2() async throws {
        try await Self.withServer { server in
            _ = try await Self.fetch(server.url(), security: .init(httpVersion: .automatic, trustRoots: try Self.privateRoots()))
            _ = try await Self.fetch(server.url(), security: .init(httpVersion: .http1, trustRoots: try Self.privateRoots()))
            #expect(server.requests.map(\.http2) == [true, false])
        }
        try await Self.withServer(http2: false) { server in
            let result = try await Self.fetch(server.url(), security: .init(trustRoots: try Self.privateRoots()))
            #expect(result.data == server.body)
            #expect(server.requests.map(\.http2) == [false])
        }
    }

    @Test("an interrupted download resumes with a range request over HTTP/2")
    func resumeOverHTTP2() async throws {
        let directory = try TestScratch.directory("tls-resume")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.withServer { server in
            let part = directory.appendingPathComponent("out.part").path
            try Data(server.body[..<50_000]).write(to: URL(fileURLWithPath: part))
            try Data("coffer-resume 1\n\(server.url().absoluteString)\n\"v1\"\n".utf8).write(to: URL(fileURLWithPath: part + ".resume"))
            let result = try await Self.fetch(server.url(), security: .init(trustRoots: try Self.privateRoots()), resumeFile: part)
            #expect(result.data == server.body)
            #expect(server.requests.last?.range == "bytes=50000-")
            #expect(server.requests.last?.http2 == true)
        }
    }

    @Test("over HTTP/2, concurrent downloads all run as h2 streams and identical ones in flight coalesce")
    func concurrentOverHTTP2() async throws {
        try await Self.withServer { server in
            let urls = [server.url("/data?a"), server.url("/data?b"), server.url("/data?a"), server.url("/data?c")]
            let results = try await Self.fetchConcurrently(urls, security: .init(trustRoots: try Self.privateRoots()))
            #expect(results.count == 4 && results.allSatisfy { $0 == server.body })
            // Identical requests in flight together share one transfer, so 3 or 4 reach the server.
            #expect((3...4).contains(server.requests.count))
            #expect(server.requests.allSatisfy { $0.http2 })
        }
    }

    @Test("a trust root the TLS library refuses fails every request with the reason, not a crash")
    func refusedTrustRoot() async throws {
        var configuration = NetworkTransport.Configuration()
        configuration.security.trustRoots = .init(certificates: [[0x30, 0x03, 0x02, 0x01, 0x01]], includesSystemRoots: false)
        #expect(throws: DownloadError.self) { try NetworkTransport.validate(configuration) }
        let transport = NetworkTransport(configuration: configuration)
        let error = await #expect(throws: DownloadError.self) {
            _ = try await transport.start(TransportRequest(url: URL(string: "https://127.0.0.1:1/")!, method: "GET", headers: []))
        }
        #expect(error?.description.contains("trust root 1") == true, "\(String(describing: error))")
        try await transport.shutdown()
    }
}
