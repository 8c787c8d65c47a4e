import CofferTestSupport
@testable import DownloadPipeline
import Foundation
import Testing

/// Transport failures name their real cause in words, as curl does, never an internal type name,
/// BoringSSL's error codes or a source path: servers with certificates openssl made expired or
/// self-signed, a redirect loop, and a proxy that refuses the tunnel.
@Suite("Transport errors say what happened", .serialized, .timeLimit(.minutes(2)))
struct TransportErrorMessageTests {
    typealias T = TransportSecurityTests

    /// A key and a certificate for `DNS:localhost, IP:127.0.0.1` made by openssl in `directory`:
    /// issued by the fixtures' intermediate CA with `days` (negative: already expired), or
    /// self-signed. Returns the chain and key files.
    static func makeServerCertificate(in directory: URL, days: Int, selfSigned: Bool = false) throws -> (chain: String, key: String) {
        let key = directory.appendingPathComponent("server.key").path
        let csr = directory.appendingPathComponent("server.csr").path
        let certificate = directory.appendingPathComponent("server.pem").path
        let subject = ["-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"]
        if selfSigned {
            _ = try ToolProcess.output(tool: "openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                                         "-keyout", key, "-days", String(days), "-out", certificate] + subject)
            return (certificate, key)
        }
        _ = try ToolProcess.output(tool: "openssl", ["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                                     "-keyout", key, "-out", csr] + subject)
        _ = try ToolProcess.output(tool: "openssl", ["x509", "-req", "-in", csr, "-CA", T.fixture("intermediate-ca.pem"),
                                                     "-CAkey", T.fixture("intermediate-ca.key.pem"), "-days", String(days),
                                                     "-copy_extensions", "copy", "-out", certificate])
        let chain = directory.appendingPathComponent("chain.pem")
        try Data(try Data(contentsOf: URL(fileURLWithPath: certificate)) + Data(contentsOf: URL(fileURLWithPath: T.fixture("intermediate-ca.pem"))))
            .write(to: chain)
        return (chain.path, key)
    }

    /// The error of fetching `url` once with the fixtures' private root trusted.
    static func failure(_ url: URL, proxy: ProxySettings = .direct, sourceLocation: SourceLocation = #_sourceLocation) async throws -> DownloadError {
        do {
            _ = try await T.fetch(url, security: .init(trustRoots: try T.privateRoots()), proxy: proxy)
        } catch let error as DownloadError {
            #expect(!error.reason.contains("/checkouts/") && !error.reason.contains("OPENSSL_internal") && !error.reason.contains("HTTPClientError"),
                    "\(error.reason)", sourceLocation: sourceLocation)
            return error
        }
        Issue.record("the fetch succeeded", sourceLocation: sourceLocation)
        throw DownloadError.transport(url: nil, "no failure")
    }

    @Test("an expired server certificate says it expired and when (curl: 'certificate has expired')")
    func expired() async throws {
        let directory = try TestScratch.directory("expired-server")
        let files = try Self.makeServerCertificate(in: directory, days: -1)
        let server = try await TLSTestServer.start(chainFile: files.chain, keyFile: files.key)
        let failure = try? await Self.failure(server.url())
        await server.stop()
        let error = try #require(failure)
        #expect(error.reason.contains("has expired") && error.reason.contains("valid until"), "\(error.reason)")
        #expect(server.requests.isEmpty)
    }

    @Test("a self-signed server certificate says so and how to trust it")
    func selfSigned() async throws {
        let directory = try TestScratch.directory("self-signed-server")
        let files = try Self.makeServerCertificate(in: directory, days: 30, selfSigned: true)
        let server = try await TLSTestServer.start(chainFile: files.chain, keyFile: files.key)
        let failure = try? await Self.failure(server.url())
        await server.stop()
        let error = try #require(failure)
        #expect(error.reason.contains("self-signed") && error.reason.contains("--cacert"), "\(error.reason)")
    }

    @Test("a chain from a CA that is not trusted names the issuer")
    func untrustedIssuer() async throws {
        try await T.withServer { server in
            do {
                _ = try await T.fetch(server.url(), security: .init(trustRoots: .init(certificates: try TransportTrustStore.certificates(at: T.fixture("unrelated-ca.pem")), includesSystemRoots: false)))
                Issue.record("an unrelated CA was accepted")
            } catch let error as DownloadError {
                #expect(error.reason.contains("does not lead to a trusted root") && error.reason.contains("issued by"), "\(error.reason)")
                #expect(!error.reason.contains("OPENSSL_internal"), "\(error.reason)")
            }
        }
    }

    @Test("a redirect loop is called one, not HTTPClientError.redirectCycleDetected")
    func redirectLoop() async throws {
        try await T.withServer { server in
            let error = try await Self.failure(server.url("/loop"))
            #expect(error.reason.contains("redirect loop"), "\(error.reason)")
        }
    }

    @Test("a proxy that allows CONNECT to port 443 only: the error gives its answer (403), not invalidProxyResponse", .needs("tinyproxy"))
    func proxyRefusesTunnel() async throws {
        let proxy = try ProxyProcess.tinyproxy(bind: "127.0.0.3", connectPorts: [443])
        defer { proxy.stop() }
        try await T.withServer { server in
            let error = try await Self.failure(server.url(), proxy: ProxySettings(proxy: try .init(url: "http://127.0.0.1:\(proxy.port)")))
            #expect(error.reason.contains("refused to open a tunnel") && error.reason.contains("answered 403"), "\(error.reason)")
            #expect(error.reason.contains("127.0.0.1:\(server.port)"), "\(error.reason)")
            #expect(server.requests.isEmpty)
        }
    }
}
