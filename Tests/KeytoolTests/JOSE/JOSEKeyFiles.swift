import CofferTestSupport
import Foundation

/// Keys for the JOSE command tests, made once by `openssl` (the real tool, not Coffer): a private
/// PEM and its public PEM per algorithm family, and random secrets for HMAC.
struct JOSEKeyFiles: Sendable {
    /// One signing key: the JWS algorithms it serves, its files.
    struct Pair: Sendable {
        var name: String
        var privatePEM: String
        var publicPEM: String
    }

    let directory: URL
    let pairs: [String: Pair]

    static let shared: Result<JOSEKeyFiles, any Error> = Result { try JOSEKeyFiles() }

    static func get() throws -> JOSEKeyFiles { try shared.get() }

    private init() throws {
        directory = try TestScratch.directory("jose-keys")
        let specs: [(String, [String])] = [
            ("rsa", ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]),
            ("p256", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]),
            ("p384", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"]),
            ("p521", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-521"]),
            ("secp256k1", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:secp256k1"]),
            ("ed25519", ["-algorithm", "ED25519"]),
            ("ed448", ["-algorithm", "ED448"]),
        ]
        var pairs: [String: Pair] = [:]
        for (name, options) in specs {
            let privatePath = directory.appendingPathComponent("\(name).pem").path
            let publicPath = directory.appendingPathComponent("\(name).pub.pem").path
            try ToolProcess.output(tool: "openssl", ["genpkey"] + options + ["-out", privatePath])
            try ToolProcess.output(tool: "openssl", ["pkey", "-in", privatePath, "-pubout", "-out", publicPath])
            pairs[name] = Pair(name: name, privatePEM: privatePath, publicPEM: publicPath)
        }
        for (name, size) in [("hs256", 32), ("hs384", 48), ("hs512", 64)] {
            let path = directory.appendingPathComponent("\(name).key").path
            try ToolProcess.output(tool: "openssl", ["rand", "-out", path, "\(size)"])
            pairs[name] = Pair(name: name, privatePEM: path, publicPEM: path)
        }
        self.pairs = pairs
    }

    /// The key pair for JWS algorithm `alg`.
    func pair(for alg: String) -> Pair {
        switch alg {
        case "HS256": pairs["hs256"]!
        case "HS384": pairs["hs384"]!
        case "HS512": pairs["hs512"]!
        case "ES256": pairs["p256"]!
        case "ES384": pairs["p384"]!
        case "ES512": pairs["p521"]!
        case "ES256K": pairs["secp256k1"]!
        case "EdDSA": pairs["ed25519"]!
        case "EdDSA-Ed448": pairs["ed448"]!
        default: pairs["rsa"]!
        }
    }

    /// The file's text.
    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }
}
