// AsymmetricKeys against OpenSSL on the same bytes and the same key, in the same run:
//   bytes → RSAPrivateKey: PKCS#1 DER and PKCS#8 DER (target ≤ 300 ns) through the typed
//     decoders and, for PKCS#8, also through KeyDecoder's format detection; PEM (≤ 2 µs) and
//     unencrypted OpenSSH (≤ 1 µs) through KeyDecoder, and OpenSSH followed by the first private
//     use (the CRT exponents are computed then); anchors d2i_RSAPrivateKey,
//     d2i_AutoPrivateKey, PEM_read_bio_PrivateKey
//   chunked RSA-2048 OAEP-SHA256 decryption of 1 MB (target ≥ 95 % of the raw EVP loop)
//   PKCS#1 v1.5 and PSS sign and verify with SHA-256 (target ≥ 95 % of raw EVP_DigestSign/Verify)
//   EC and Ed25519 keys: CurveKeyBenchmarks.swift
// Every path is checked for the right result before anything is timed.
import Benchmark
import CKeyAnchors
import CryptoOpenSSL
import Foundation
import AsymmetricKeys
import KeyCodec

let benchmarks: @Sendable () -> Void = {
    let keys = KeyFixtures.load()
    registerCurveKeyBenchmarks()

    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 100_000
    )

    Benchmark("Key PKCS#1 DER: Coffer RSAPrivateKey(pkcs1DER:)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try RSAPrivateKey(pkcs1DER: keys.pkcs1DER)) }
    }
    Benchmark("Key PKCS#1 DER: OpenSSL d2i_RSAPrivateKey") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(coffer_key_anchor_d2i_pkcs1(keys.pkcs1DER, keys.pkcs1DER.count)) }
    }
    Benchmark("Key PKCS#8 DER: Coffer PKCS8PrivateKey.decode") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try PKCS8PrivateKey.decode(keys.pkcs8DER)) }
    }
    Benchmark("Key PKCS#8 DER: Coffer KeyDecoder") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try KeyDecoder.decode(keys.pkcs8DER, source: "bench", passphrase: nil)) }
    }
    Benchmark("Key PKCS#8 DER: OpenSSL d2i_AutoPrivateKey") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(coffer_key_anchor_d2i_pkcs8(keys.pkcs8DER, keys.pkcs8DER.count)) }
    }
    Benchmark("Key PKCS#1 PEM: Coffer KeyDecoder") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try KeyDecoder.decode(keys.pkcs1PEM, source: "bench", passphrase: nil)) }
    }
    Benchmark("Key PKCS#1 PEM: OpenSSL PEM_read_bio_PrivateKey") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(coffer_key_anchor_pem_read(keys.pkcs1PEM, keys.pkcs1PEM.count)) }
    }
    Benchmark("Key OpenSSH: Coffer KeyDecoder") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try KeyDecoder.decode(keys.openssh, source: "bench", passphrase: nil)) }
    }
    // An OpenSSH RSA key computes its CRT exponents on first private use; this times that too.
    Benchmark("Key OpenSSH: Coffer KeyDecoder, then its PKCS#1 DER") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try KeyDecoder.decode(keys.openssh, source: "bench", passphrase: nil).key.privateKey?.rsa?.pkcs1DER)
        }
    }

    // RSA operations: a few iterations of real work each.
    let operations = Benchmark.Configuration(
        metrics: [.wallClock, .throughput],
        timeUnits: .microseconds,
        warmupIterations: 2,
        scalingFactor: .one,
        maxDuration: .seconds(20),
        maxIterations: 25
    )
    let decryptOps = Benchmark.Configuration(
        metrics: [.wallClock, .throughput], timeUnits: .milliseconds, warmupIterations: 1,
        scalingFactor: .one, maxDuration: .seconds(30), maxIterations: 10)
    let interleaved = Benchmark.Configuration(
        metrics: InterleavedComparison.metrics, timeUnits: .milliseconds, warmupIterations: 1,
        scalingFactor: .one, maxDuration: .seconds(60), maxIterations: 10)

    Benchmark("Decrypt 1 MB OAEP-SHA256 chunked: Coffer RSAPrivateKey.decrypt", configuration: decryptOps) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try keys.privateKey.decrypt(keys.ciphertext)) }
    }
    Benchmark("Decrypt 1 MB OAEP-SHA256 chunked: raw EVP_PKEY_decrypt loop", configuration: decryptOps) { benchmark in
        var out = [UInt8](repeating: 0, count: keys.ciphertext.count)
        for _ in benchmark.scaledIterations {
            blackHole(coffer_key_anchor_oaep_decrypt_blocks(keys.evpKey.pointer, keys.ciphertext, keys.ciphertext.count / 256, 256, &out))
        }
    }

    let message = [UInt8](repeating: 0x5A, count: 1024)
    for pss in [false, true] {
        let name = pss ? "PSS" : "PKCS#1 v1.5"
        let padding: RSASignaturePadding = pss ? .pss(saltLength: .digestLength) : .pkcs1v15
        let signer = PrivateKey.rsa(keys.privateKey)
        let verifier = PublicKey.rsa(keys.publicKey)
        let signature = try! signer.sign(message, scheme: .rsa(padding, digest: .sha256))
        Benchmark("Sign \(name) SHA-256: Coffer", configuration: operations) { benchmark in
            for _ in 0..<50 { blackHole(try signer.sign(message, scheme: .rsa(padding, digest: .sha256))) }
        }
        Benchmark("Sign \(name) SHA-256: raw EVP_DigestSign", configuration: operations) { benchmark in
            var sig = [UInt8](repeating: 0, count: 512)
            for _ in 0..<50 { blackHole(coffer_key_anchor_sign(keys.evpKey.pointer, pss ? 1 : 0, message, message.count, &sig, sig.count)) }
        }
        Benchmark("Verify \(name) SHA-256: Coffer", configuration: operations) { benchmark in
            for _ in 0..<1000 { blackHole(try verifier.verify(signature, for: message, scheme: .rsa(pss ? .pss(saltLength: .auto) : .pkcs1v15, digest: .sha256))) }
        }
        Benchmark("Verify \(name) SHA-256: raw EVP_DigestVerify", configuration: operations) { benchmark in
            for _ in 0..<1000 { blackHole(coffer_key_anchor_verify(keys.evpKey.pointer, pss ? 1 : 0, message, message.count, signature, signature.count)) }
        }

        // The same comparisons, alternating Coffer and the raw loop every few operations.
        Benchmark("Interleaved sign \(name) SHA-256: Coffer vs raw EVP_DigestSign", configuration: interleaved) { benchmark in
            var sig = [UInt8](repeating: 0, count: 512)
            try InterleavedComparison.measure(benchmark, slices: 20, operations: 100) {
                for _ in 0..<5 { blackHole(try signer.sign(message, scheme: .rsa(padding, digest: .sha256))) }
            } raw: {
                for _ in 0..<5 { blackHole(coffer_key_anchor_sign(keys.evpKey.pointer, pss ? 1 : 0, message, message.count, &sig, sig.count)) }
            }
        }
        Benchmark("Interleaved verify \(name) SHA-256: Coffer vs raw EVP_DigestVerify", configuration: interleaved) { benchmark in
            let verifyPadding: RSASignaturePadding = pss ? .pss(saltLength: .auto) : .pkcs1v15
            try InterleavedComparison.measure(benchmark, slices: 20, operations: 1000) {
                for _ in 0..<50 { blackHole(try verifier.verify(signature, for: message, scheme: .rsa(verifyPadding, digest: .sha256))) }
            } raw: {
                for _ in 0..<50 { blackHole(coffer_key_anchor_verify(keys.evpKey.pointer, pss ? 1 : 0, message, message.count, signature, signature.count)) }
            }
        }
    }

    // The ciphertext of 1 MB (5,519 blocks) in slices of at most 256 blocks, each slice decrypted
    // by both sides in turn.
    Benchmark("Interleaved decrypt 1 MB OAEP-SHA256 chunked: Coffer vs raw EVP_PKEY_decrypt loop", configuration: interleaved) { benchmark in
        let sliceBytes = 256 * 256
        let slices = stride(from: 0, to: keys.ciphertext.count, by: sliceBytes).map {
            Array(keys.ciphertext[$0..<min($0 + sliceBytes, keys.ciphertext.count)])
        }
        var out = [UInt8](repeating: 0, count: sliceBytes)
        var cofferSlice = 0
        var rawSlice = 0
        // The metrics come out per 256-byte block.
        try InterleavedComparison.measure(benchmark, slices: slices.count, operations: keys.ciphertext.count / 256) {
            blackHole(try keys.privateKey.decrypt(slices[cofferSlice]))
            cofferSlice += 1
        } raw: {
            let slice = slices[rawSlice]
            blackHole(coffer_key_anchor_oaep_decrypt_blocks(keys.evpKey.pointer, slice, slice.count / 256, 256, &out))
            rawSlice += 1
        }
    }
}
