import AsymmetricKeys
import CofferTestSupport
import Foundation
import Testing
import X509Kit
import KeyCodec

@Suite("Trust stores")
struct TrustStoreTests {
    static let roots = ["root-rsa", "root-p256", "root-ed25519"]

    func subjects(_ store: TrustStore) -> Set<String> { Set(store.certificates.map(\.subject.rfc4514String)) }

    func expectedSubjects() throws -> Set<String> { Set(try Self.roots.map { try PKIFixtureFiles.certificate($0).subject.rfc4514String }) }

    @Test("a PEM bundle gives each certificate")
    func bundle() throws {
        let store = try TrustStore(file: PKIFixtureFiles.path("roots-bundle.pem"))
        #expect(store.certificates.count == 3)
        #expect(try subjects(store) == expectedSubjects())
        #expect(store.skipped.isEmpty)
        #expect(store.source == "file \(PKIFixtureFiles.path("roots-bundle.pem"))")
    }

    @Test("a directory of hash links and DER files gives each root once and reports the skipped file")
    func directory() throws {
        let store = try TrustStore(directory: PKIFixtureFiles.path("roots-dir"))
        #expect(store.certificates.count == 3)
        #expect(try subjects(store) == expectedSubjects())
        #expect(store.skipped.map(\.path) == [PKIFixtureFiles.path("roots-dir") + "/README.txt"])
        #expect(store.skipped.first?.reason.contains("not a certificate") == true)
    }

    @Test("a directory with a subdirectory, a hidden file, a key and a broken link reports each")
    func skips() throws {
        let folder = try TestScratch.directory("truststore-skips")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data(PKIFixtureFiles.bytes("root-p256.pem")).write(to: folder.appendingPathComponent("root.pem"))
        try Data("x".utf8).write(to: folder.appendingPathComponent(".hidden"))
        try Data(ToolProcess.run(tool: "openssl", ["genpkey", "-algorithm", "ED25519"]).stdout).write(to: folder.appendingPathComponent("key.pem"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("dangling.0").path, withDestinationPath: "/nonexistent/coffer")
        let store = try TrustStore(directory: folder.path)
        #expect(store.certificates.count == 1)
        let reasons = Dictionary(uniqueKeysWithValues: store.skipped.map { (URL(fileURLWithPath: $0.path).lastPathComponent, $0.reason) })
        #expect(reasons.keys.sorted() == [".hidden", "dangling.0", "key.pem", "sub"])
        #expect(reasons["sub"] == "a directory")
        #expect(reasons["dangling.0"] == "a broken link")
        #expect(reasons["key.pem"] == "holds a key, not a certificate")
    }

    @Test("missing or empty stores are trustStoreUnavailable errors naming the path")
    func errors() throws {
        #expect(throws: CertificateError(.trustStoreUnavailable, "")) { try TrustStore(file: "/nonexistent/coffer.pem") }
        #expect(throws: CertificateError(.trustStoreUnavailable, "")) { try TrustStore(file: PKIFixtureFiles.path("roots-dir")) }
        #expect(throws: CertificateError(.trustStoreUnavailable, "")) { try TrustStore(file: PKIFixtureFiles.path("roots-dir/README.txt")) }
        #expect(throws: CertificateError(.trustStoreUnavailable, "")) { try TrustStore(directory: PKIFixtureFiles.path("roots-bundle.pem")) }
        do {
            _ = try TrustStore(file: "/nonexistent/coffer.pem")
        } catch let error as CertificateError {
            #expect(error.path == "/nonexistent/coffer.pem")
        }
    }

    @Test("SSL_CERT_FILE and SSL_CERT_DIR come first and are the only sources when set")
    func environment() throws {
        let bundle = PKIFixtureFiles.path("roots-bundle.pem")
        let directory = PKIFixtureFiles.path("roots-dir")
        let fromFile = try SystemTrustStore.load(environment: { $0 == "SSL_CERT_FILE" ? bundle : nil })
        #expect(fromFile.source == "SSL_CERT_FILE=\(bundle)")
        #expect(fromFile.certificates.count == 3)
        let fromDirectory = try SystemTrustStore.load(environment: { $0 == "SSL_CERT_DIR" ? "/nonexistent/coffer:" + directory : nil })
        #expect(fromDirectory.source == "SSL_CERT_DIR=\(directory)")
        #expect(fromDirectory.certificates.count == 3)
        #expect(fromDirectory.skipped.contains { $0.path == "/nonexistent/coffer" })
        #expect(fromDirectory.skipped.contains { $0.path.hasSuffix("README.txt") })
        #expect(throws: CertificateError(.trustStoreUnavailable, "")) {
            try SystemTrustStore.load(environment: { $0 == "SSL_CERT_FILE" ? "/nonexistent/coffer.pem" : nil })
        }
    }

    @Test("without the environment the first bundle that exists is used, then the directory")
    func searchOrder() throws {
        let bundle = PKIFixtureFiles.path("roots-bundle.pem")
        let directory = PKIFixtureFiles.path("roots-dir")
        let first = try SystemTrustStore.load(environment: { _ in nil }, bundleFiles: ["/nonexistent/a.pem", bundle], directory: directory)
        #expect(first.source == "file \(bundle)")
        let last = try SystemTrustStore.load(environment: { _ in nil }, bundleFiles: ["/nonexistent/a.pem"], directory: directory)
        #expect(last.source == "directory \(directory)")
        #expect(throws: CertificateError(.trustStoreUnavailable, "")) {
            try SystemTrustStore.load(environment: { _ in nil }, bundleFiles: ["/nonexistent/a.pem"], directory: "/nonexistent/dir")
        }
        #expect(SystemTrustStore.bundleFiles.first == "/etc/ssl/certs/ca-certificates.crt")
        #expect(SystemTrustStore.bundleFiles.count == 7)
    }

    @Test("the Debian bundle (ca-certificates) loads every certificate openssl counts in it")
    func debianBundle() throws {
        let store = try SystemTrustStore.load(environment: { _ in nil })
        #expect(store.source == "file /etc/ssl/certs/ca-certificates.crt")
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: "/etc/ssl/certs/ca-certificates.crt")), as: UTF8.self)
        let blocks = text.components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1
        #expect(blocks > 100)
        #expect(store.certificates.count + store.skipped.count >= blocks - 2)
        #expect(store.certificates.count >= blocks - 5)
    }
}
