import Foundation

/// One entry of `Fixtures/x509/facts.json`: what openssl reported about a fixture certificate or
/// certification request when `tools/make-fixtures certs` made it.
public struct CertificateFact: Decodable, Sendable, CustomStringConvertible {
    /// One extension as `openssl x509 -ext` (or `req -text`) printed it.
    public struct Extension: Decodable, Sendable {
        public var critical: Bool
        public var value: String
    }

    /// One entry of openssl's extension list (`x509 -text`).
    public struct ListedExtension: Decodable, Sendable {
        public var name: String
        public var critical: Bool
    }

    public var file: String
    public var encoding: String
    /// `certificate`, `csr` or `bundle`.
    public var kind: String
    public var subject: String?
    public var issuer: String?
    public var serial: String?
    public var notBefore: String?
    public var notAfter: String?
    public var certificateSHA256: String?
    public var version: Int?
    public var signatureAlgorithm: String?
    public var signatureValid: Bool?
    /// Keyed `subjectAltName`, `keyUsage`, `extendedKeyUsage`, `basicConstraints`.
    public var extensions: [String: Extension]?
    public var requestedExtensions: [String: Extension]?
    public var allExtensions: [ListedExtension]?
    /// The SubjectPublicKeyInfo DER in lowercase hex (`-pubkey`).
    public var publicKey: String?
    /// For a bundle: the fixture files of its blocks, in order.
    public var blocks: [String]?

    public var description: String { file }

    /// The folder of the certificate fixtures.
    public static let directory = ToolProcess.repositoryRoot.appendingPathComponent("Fixtures/x509")

    /// Every entry of `facts.json`; throws when the file is missing, unreadable, malformed or
    /// empty, so a test over the facts fails instead of passing on none.
    public static var all: [CertificateFact] {
        get throws { try loaded.get() }
    }

    private static let loaded = Result { () throws(FixtureFacts.Unusable) in
        try FixtureFacts.load([CertificateFact].self, in: directory)
    }

    public static var certificates: [CertificateFact] {
        get throws { try all.filter { $0.kind == "certificate" } }
    }

    public static var requests: [CertificateFact] {
        get throws { try all.filter { $0.kind == "csr" } }
    }

    public static func named(_ file: String) throws -> CertificateFact? { try all.first { $0.file == file } }

    // MARK: - openssl's spellings, translated to Coffer's

    /// The SAN entries, split as openssl joins them (`, `).
    public static func subjectAltNames(_ ext: Extension?) -> [String]? {
        ext.map { $0.value.components(separatedBy: ", ") }
    }

    /// openssl's key usage words (`Digital Signature`) as RFC 5280 names (`digitalSignature`).
    public static func keyUsage(_ ext: Extension?) -> [String]? {
        let names = ["Digital Signature": "digitalSignature", "Non Repudiation": "nonRepudiation",
                     "Key Encipherment": "keyEncipherment", "Data Encipherment": "dataEncipherment",
                     "Key Agreement": "keyAgreement", "Certificate Sign": "keyCertSign", "CRL Sign": "cRLSign",
                     "Encipher Only": "encipherOnly", "Decipher Only": "decipherOnly"]
        return ext.map { $0.value.components(separatedBy: ", ").map { names[$0] ?? "?\($0)" } }
    }

    /// openssl's purpose texts (`TLS Web Server Authentication`) as its short names (`serverAuth`).
    public static func extendedKeyUsage(_ ext: Extension?) -> [String]? {
        let names = ["TLS Web Server Authentication": "serverAuth", "TLS Web Client Authentication": "clientAuth",
                     "Code Signing": "codeSigning", "E-mail Protection": "emailProtection",
                     "Time Stamping": "timeStamping", "OCSP Signing": "OCSPSigning"]
        return ext.map { $0.value.components(separatedBy: ", ").map { names[$0] ?? $0 } }
    }

    /// `CA:TRUE, pathlen:0` as (CA, path length).
    public static func basicConstraints(_ ext: Extension?) -> (ca: Bool, pathLength: Int?)? {
        guard let ext else { return nil }
        let parts = ext.value.components(separatedBy: ", ")
        let pathLength = parts.first { $0.hasPrefix("pathlen:") }.flatMap { Int($0.dropFirst("pathlen:".count)) }
        return (parts.first == "CA:TRUE", pathLength)
    }

    /// The instant of an RFC 3339 fact in seconds since 1970.
    public static func seconds(_ rfc3339: String) -> Int64 {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return Int64(formatter.date(from: rfc3339)!.timeIntervalSince1970)
    }
}
