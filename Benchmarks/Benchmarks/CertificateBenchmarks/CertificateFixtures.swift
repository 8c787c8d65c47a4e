import ASN1Kit
import AsymmetricKeys
import Foundation

/// The inputs of the certificate-verification benchmarks: the chains that tools/make-bench-chains
/// writes to Benchmarks/Resources/chains/, and the Debian CA bundle.
struct CertificateFixtures {
    /// One chain's DER, leaf and intermediate as a TLS server sends them, and its root.
    struct Chain {
        var name: String
        var leaf: [UInt8]
        var intermediate: [UInt8]
        var root: [UInt8]
    }

    /// The Debian (ca-certificates) bundle: 139 roots on the machine these figures come from.
    static let bundlePath = "/etc/ssl/certs/ca-certificates.crt"
    /// The instant every chain is verified at: 2026-01-01T00:00:00Z, inside every validity.
    static let time: Int64 = 1_767_225_600
    /// The name every leaf is for.
    static let host = "bench.coffer.example"

    var chains: [Chain]
    /// The bundle's roots, DER, in file order.
    var bundleRoots: [[UInt8]]

    static func load() -> CertificateFixtures {
        // Benchmarks/Benchmarks/CertificateBenchmarks/ → Benchmarks/Resources/chains/
        let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources/chains")
        func read(_ path: String) -> [UInt8] {
            guard let data = FileManager.default.contents(atPath: path) else {
                fatalError("CertificateBenchmarks: cannot read \(path) (run tools/make-bench-chains)")
            }
            return [UInt8](data)
        }
        let chains = [("RSA-2048", "rsa2048"), ("ECDSA P-256", "p256"), ("Ed25519", "ed25519")].map { name, file in
            Chain(name: name,
                  leaf: read(resources.appendingPathComponent("\(file)-leaf.der").path),
                  intermediate: read(resources.appendingPathComponent("\(file)-intermediate.der").path),
                  root: read(resources.appendingPathComponent("\(file)-root.der").path))
        }
        let blocks: [PEMBlock]
        do {
            blocks = try PEMParser.blocks(in: read(bundlePath))
        } catch {
            fatalError("CertificateBenchmarks: \(bundlePath): \(error)")
        }
        return CertificateFixtures(chains: chains,
                                   bundleRoots: blocks.filter { $0.label == "CERTIFICATE" }.map(\.bytes))
    }
}
