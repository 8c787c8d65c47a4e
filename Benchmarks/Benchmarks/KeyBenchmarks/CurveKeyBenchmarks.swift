// EC and Ed25519 keys against OpenSSL on the same bytes, in the same run:
//   PKCS#8 DER → key for Ed25519 and P-256 (target ≥ 5× faster than d2i_AutoPrivateKey and
//     PEM_read_bio_PrivateKey): Coffer's PKCS8PrivateKey.decode and KeyDecoder, and — for the
//     whole cost of a first operation — decode plus building the EVP_PKEY (openSSLKey()).
//   Ed25519 sign and verify of 1 KiB (target within 5 % of the raw EVP_DigestSign/Verify loop).
import Benchmark
import CKeyAnchors
import CryptoOpenSSL
import Foundation
import AsymmetricKeys
import KeyCodec

/// The Ed25519 and P-256 fixtures, checked.
struct CurveKeyFixtures: @unchecked Sendable {
    // @unchecked: the EVP keys are only read (see EVPKeyAny).
    let ed25519DER: [UInt8]
    let ed25519PEM: [UInt8]
    let p256DER: [UInt8]
    let p256PEM: [UInt8]
    let ed25519: PrivateKey
    let ed25519Public: PublicKey
    let evpEd25519: UnsafeMutableRawPointer

    static func load() -> CurveKeyFixtures {
        let read = KeyFixtures.read
        let ed25519DER = read("ed25519.pkcs8.der")
        let key = try! PKCS8PrivateKey.decode(ed25519DER[...])
        let fixtures = CurveKeyFixtures(
            ed25519DER: ed25519DER, ed25519PEM: read("ed25519.pkcs8.pem"),
            p256DER: read("ec-p256.pkcs8.der"), p256PEM: read("ec-p256.pkcs8.pem"),
            ed25519: key, ed25519Public: try! key.publicKey(),
            evpEd25519: coffer_key_anchor_load_any(ed25519DER, ed25519DER.count)!)
        fixtures.check()
        return fixtures
    }

    func check() {
        for der in [ed25519DER, p256DER] {
            precondition(coffer_key_anchor_d2i_pkcs8(der, der.count) == 1)
            precondition((try? PKCS8PrivateKey.decode(der[...])) != nil)
        }
        for pem in [ed25519PEM, p256PEM] {
            precondition(coffer_key_anchor_pem_read(pem, pem.count) == 1)
            precondition((try? KeyDecoder.decode(pem, source: "bench", passphrase: nil)) != nil)
        }
        let message = [UInt8](repeating: 0x5A, count: 1024)
        let ours = try! ed25519.sign(message, scheme: .eddsa)
        var theirs = [UInt8](repeating: 0, count: 64)
        precondition(coffer_key_anchor_eddsa_sign(evpEd25519, message, message.count, &theirs, theirs.count) == 64)
        precondition(ours == theirs)
        precondition(try! ed25519Public.verify(theirs, for: message, scheme: .eddsa))
        precondition(coffer_key_anchor_eddsa_verify(evpEd25519, message, message.count, ours, ours.count) == 1)
    }
}

func registerCurveKeyBenchmarks() {
    let keys = CurveKeyFixtures.load()
    for (name, der, pem) in [("Ed25519", keys.ed25519DER, keys.ed25519PEM), ("P-256", keys.p256DER, keys.p256PEM)] {
        Benchmark("Key \(name) PKCS#8 DER: Coffer PKCS8PrivateKey.decode") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try PKCS8PrivateKey.decode(der[...])) }
        }
        Benchmark("Key \(name) PKCS#8 DER: Coffer decode + openSSLKey()") { benchmark in
            for _ in benchmark.scaledIterations {
                switch try PKCS8PrivateKey.decode(der[...]) {
                case .ec(let key): blackHole(try key.openSSLKey())
                case .octet(let key): blackHole(try key.openSSLKey())
                case .rsa(let key): blackHole(try key.openSSLKey())
                default: fatalError("the \(name) fixture is not an EC or EdDSA key")
                }
            }
        }
        Benchmark("Key \(name) PKCS#8 DER: OpenSSL d2i_AutoPrivateKey") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(coffer_key_anchor_d2i_pkcs8(der, der.count)) }
        }
        Benchmark("Key \(name) PKCS#8 PEM: Coffer KeyDecoder") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try KeyDecoder.decode(pem, source: "bench", passphrase: nil)) }
        }
        Benchmark("Key \(name) PKCS#8 PEM: OpenSSL PEM_read_bio_PrivateKey") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(coffer_key_anchor_pem_read(pem, pem.count)) }
        }
    }

    let operations = Benchmark.Configuration(
        metrics: [.wallClock, .throughput], timeUnits: .microseconds, warmupIterations: 2,
        scalingFactor: .one, maxDuration: .seconds(20), maxIterations: 25)
    let interleaved = Benchmark.Configuration(
        metrics: InterleavedComparison.metrics, timeUnits: .milliseconds, warmupIterations: 1,
        scalingFactor: .one, maxDuration: .seconds(60), maxIterations: 10)
    let message = [UInt8](repeating: 0x5A, count: 1024)
    let signature = try! keys.ed25519.sign(message, scheme: .eddsa)
    Benchmark("Sign Ed25519 1 KiB: Coffer", configuration: operations) { _ in
        for _ in 0..<200 { blackHole(try keys.ed25519.sign(message, scheme: .eddsa)) }
    }
    Benchmark("Sign Ed25519 1 KiB: raw EVP_DigestSign", configuration: operations) { _ in
        var sig = [UInt8](repeating: 0, count: 64)
        for _ in 0..<200 { blackHole(coffer_key_anchor_eddsa_sign(keys.evpEd25519, message, message.count, &sig, sig.count)) }
    }
    Benchmark("Verify Ed25519 1 KiB: Coffer", configuration: operations) { _ in
        for _ in 0..<200 { blackHole(try keys.ed25519Public.verify(signature, for: message, scheme: .eddsa)) }
    }
    Benchmark("Verify Ed25519 1 KiB: raw EVP_DigestVerify", configuration: operations) { _ in
        for _ in 0..<200 { blackHole(coffer_key_anchor_eddsa_verify(keys.evpEd25519, message, message.count, signature, signature.count)) }
    }
    Benchmark("Interleaved sign Ed25519 1 KiB: Coffer vs raw EVP_DigestSign", configuration: interleaved) { benchmark in
        var sig = [UInt8](repeating: 0, count: 64)
        try InterleavedComparison.measure(benchmark, slices: 20, operations: 100) {
            for _ in 0..<5 { blackHole(try keys.ed25519.sign(message, scheme: .eddsa)) }
        } raw: {
            for _ in 0..<5 { blackHole(coffer_key_anchor_eddsa_sign(keys.evpEd25519, message, message.count, &sig, sig.count)) }
        }
    }
    Benchmark("Interleaved verify Ed25519 1 KiB: Coffer vs raw EVP_DigestVerify", configuration: interleaved) { benchmark in
        try InterleavedComparison.measure(benchmark, slices: 20, operations: 100) {
            for _ in 0..<5 { blackHole(try keys.ed25519Public.verify(signature, for: message, scheme: .eddsa)) }
        } raw: {
            for _ in 0..<5 { blackHole(coffer_key_anchor_eddsa_verify(keys.evpEd25519, message, message.count, signature, signature.count)) }
        }
    }
}
