import CofferTestSupport
import Foundation
import X509Kit

/// NIST PKITS as it lies in `Fixtures/pkits` (tools/pyca-vectors), read once for every PKITS
/// suite: the trust anchor, every other CA certificate (the untrusted pool), every CRL, and the
/// names of the files Coffer does not read, which the suites check against their expectations
/// rather than leaving them out silently.
struct PKITSSuite: Sendable {
    static let directory = ToolProcess.repositoryRoot.appendingPathComponent("Fixtures/pkits")

    var anchor: Certificate
    var pool: [Certificate]
    var crls: [CertificateRevocationList]
    /// The CA certificates (`certs/NAME.crt`) and CRLs (`crls/NAME.crl`) that did not read.
    var unreadable: [String]

    /// The suite, read once; a missing anchor or folder is an error of every test that uses it.
    static let shared = Result { try PKITSSuite() }

    /// `certs/NAME.crt` (name without `.crt`).
    static func certificate(_ name: String) throws -> Certificate {
        try Certificate(derEncoded: Array(try Data(contentsOf: directory.appendingPathComponent("certs/\(name).crt")))[...])
    }

    private init() throws {
        let files = FileManager.default
        let names = try files.contentsOfDirectory(atPath: Self.directory.appendingPathComponent("certs").path).sorted()
        var unreadable: [String] = []
        pool = []
        for name in names where name.hasSuffix(".crt") && !name.hasSuffix("EE.crt") && name != "TrustAnchorRootCertificate.crt" {
            if let certificate = try? Self.certificate(String(name.dropLast(4))) { pool.append(certificate) } else { unreadable.append("certs/" + name) }
        }
        crls = []
        let crlFolder = Self.directory.appendingPathComponent("crls")
        for name in try files.contentsOfDirectory(atPath: crlFolder.path).sorted() {
            let bytes = Array(try Data(contentsOf: crlFolder.appendingPathComponent(name)))
            if let crl = try? CertificateRevocationList(derEncoded: bytes[...]) { crls.append(crl) } else { unreadable.append("crls/" + name) }
        }
        anchor = try Self.certificate("TrustAnchorRootCertificate")
        self.unreadable = unreadable
    }
}
