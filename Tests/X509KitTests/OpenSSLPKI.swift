import AsymmetricKeys
import CofferTestSupport
import Foundation
import X509Kit

/// Keys and certificates made by the `openssl` command line in a scratch folder, for the
/// verifier's tests: Coffer never makes the certificates it checks.
struct OpenSSLPKI {
    enum Algorithm {
        case rsa, rsaPSS, p256, p384, ed25519, ed448
    }

    let folder: URL

    init(_ label: String) throws {
        folder = try TestScratch.directory(label)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    @discardableResult
    private func openssl(_ arguments: [String]) throws -> [UInt8] {
        try ToolProcess.output(tool: "openssl", arguments)
    }

    /// Writes `name.key`.
    func key(_ name: String, _ algorithm: Algorithm) throws {
        let options: [String]
        switch algorithm {
        case .rsa, .rsaPSS: options = ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]
        case .p256: options = ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]
        case .p384: options = ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"]
        case .ed25519: options = ["-algorithm", "ED25519"]
        case .ed448: options = ["-algorithm", "ED448"]
        }
        try openssl(["genpkey"] + options + ["-out", path("\(name).key")])
    }

    static let caExtensions = [
        "basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign,cRLSign", "subjectKeyIdentifier=hash",
    ]
    static let leafExtensions = [
        "basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature", "extendedKeyUsage=serverAuth",
        "subjectAltName=DNS:example.com", "subjectKeyIdentifier=hash",
    ]

    /// Writes `name.pem`, for the key `key.key`, with `subject`, signed by `issuer` (`issuer.pem`
    /// and `issuerKey.key`), or self-signed when `issuer` is nil.
    func certificate(_ name: String, key: String, subject: String, issuer: String? = nil, issuerKey: String? = nil,
                     extensions: [String], days: Int = 30, serial: Int = 1, pss: Bool = false) throws {
        let extensionFile = path("\(name).ext")
        var lines = ["[v3]"] + extensions
        if issuer != nil { lines.append("authorityKeyIdentifier=keyid:always") }
        try (lines.joined(separator: "\n") + "\n").write(toFile: extensionFile, atomically: true, encoding: .utf8)
        try openssl(["req", "-new", "-key", path("\(key).key"), "-subj", subject, "-out", path("\(name).csr")])
        var arguments = ["x509", "-req", "-in", path("\(name).csr"), "-days", String(days), "-set_serial", String(serial),
                         "-extfile", extensionFile, "-extensions", "v3", "-out", path("\(name).pem")]
        if let issuer {
            arguments += ["-CA", path("\(issuer).pem"), "-CAkey", path("\(issuerKey ?? issuer).key")]
        } else {
            arguments += ["-signkey", path("\(key).key")]
        }
        if pss { arguments += ["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:32", "-sha256"] }
        try openssl(arguments)
    }

    /// The parsed certificate `name.pem`.
    func load(_ name: String) throws -> Certificate {
        let der = try openssl(["x509", "-in", path("\(name).pem"), "-outform", "DER"])
        return try Certificate(derEncoded: der[...])
    }

    /// Whether `openssl verify -x509_strict` accepts `leaf` with these roots and intermediates.
    func opensslAccepts(_ leaf: String, roots: [String], untrusted: [String] = [], extra: [String] = []) throws -> Bool {
        let bundle = path("roots-\(UUID().uuidString).pem")
        try roots.map { try String(contentsOfFile: path("\($0).pem"), encoding: .utf8) }.joined()
            .write(toFile: bundle, atomically: true, encoding: .utf8)
        var arguments = ["verify", "-x509_strict", "-CAfile", bundle]
        if !untrusted.isEmpty {
            let chain = path("untrusted-\(UUID().uuidString).pem")
            try untrusted.map { try String(contentsOfFile: path("\($0).pem"), encoding: .utf8) }.joined()
                .write(toFile: chain, atomically: true, encoding: .utf8)
            arguments += ["-untrusted", chain]
        }
        arguments += extra + [path("\(leaf).pem")]
        return try ToolProcess.run(tool: "openssl", arguments).status == 0
    }
}
