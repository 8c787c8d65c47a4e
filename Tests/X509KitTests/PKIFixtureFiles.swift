import AsymmetricKeys
import CofferTestSupport
import Foundation
import X509Kit
import KeyCodec

/// The files of `Fixtures/pki/` (made by `tools/make-fixtures pki`) and its `facts.tsv`.
enum PKIFixtureFiles {
    /// The folder.
    static let directory = ToolProcess.repositoryRoot.appendingPathComponent("Fixtures/pki")

    /// The path of a fixture file.
    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The bytes of a fixture file.
    static func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: directory.appendingPathComponent(name))) }

    /// The first certificate of `NAME.pem`.
    static func certificate(_ name: String) throws -> Certificate {
        let entries = try KeyDecoder.decodeEntries(bytes("\(name).pem"), source: name, passphrase: nil).entries
        guard let certificate = entries.first?.certificate else { throw FixtureMissing(name: name) }
        return certificate
    }

    /// The CRL of `NAME.der`.
    static func crl(_ name: String) throws -> CertificateRevocationList {
        try CertificateRevocationList(derEncoded: bytes("\(name).der")[...])
    }

    struct FixtureMissing: Error { var name: String }

    /// The lines of facts.tsv, split at tabs.
    static func facts() throws -> [[String]] {
        let text = String(decoding: try bytes("facts.tsv"), as: UTF8.self)
        let lines = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        guard lines.count > 10 else { throw FixtureMissing(name: "facts.tsv") }
        return lines
    }

    /// The verification time of the facts (2030-01-01), seconds since 1970.
    static var at: Int64 {
        get throws {
            guard let line = try facts().first(where: { $0.first == "at" }), let value = Int64(line[1]) else {
                throw FixtureMissing(name: "facts.tsv at")
            }
            return value
        }
    }
}
