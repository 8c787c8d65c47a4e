// RSAKeys against OpenSSL on the same bytes and the same key, in the same run:
//   bytes → RSAPrivateKey: PKCS#1 DER and PKCS#8 DER (target ≤ 300 ns), PEM (≤ 2 µs),
//     unencrypted OpenSSH (≤ 1 µs); anchors d2i_RSAPrivateKey, d2i_AutoPrivateKey,
//     PEM_read_bio_PrivateKey
//   chunked RSA-2048 OAEP-SHA256 decryption of 1 MB (target ≥ 95 % of the raw EVP loop)
//   PKCS#1 v1.5 and PSS sign and verify with SHA-256 (target ≥ 95 % of raw EVP_DigestSign/Verify)
// Every path is checked for the right result before anything is timed.
import Benchmark
import CKeyAnchors
import CryptoOpenSSL
import Foundation
import RSAKeys

let benchmarks: @Sendable () -> Void = {
    let keys = KeyFixtures.load()

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

    // RSA operations: a few iterations of real work each.
    let operations = Benchmark.Configuration(
        metrics: [.wallClock, .throughput],
        timeUnits: .microseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(20),
        maxIterations: 5
    )
    let decryptOps = Benchmark.Configuration(
        metrics: [.wallClock, .throughput], timeUnits: .milliseconds, warmupIterations: 1,
        scalingFactor: .one, maxDuration: .seconds(30), maxIterations: 3)

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
        let signature = try! keys.privateKey.sign(message, hash: .sha256, padding: padding)
        Benchmark("Sign \(name) SHA-256: Coffer", configuration: operations) { benchmark in
            for _ in 0..<50 { blackHole(try keys.privateKey.sign(message, hash: .sha256, padding: padding)) }
        }
        Benchmark("Sign \(name) SHA-256: raw EVP_DigestSign", configuration: operations) { benchmark in
            var sig = [UInt8](repeating: 0, count: 512)
            for _ in 0..<50 { blackHole(coffer_key_anchor_sign(keys.evpKey.pointer, pss ? 1 : 0, message, message.count, &sig, sig.count)) }
        }
        Benchmark("Verify \(name) SHA-256: Coffer", configuration: operations) { benchmark in
            for _ in 0..<1000 { blackHole(try keys.publicKey.verify(signature: signature, message: message, hash: .sha256, padding: pss ? .pss(saltLength: .auto) : .pkcs1v15)) }
        }
        Benchmark("Verify \(name) SHA-256: raw EVP_DigestVerify", configuration: operations) { benchmark in
            for _ in 0..<1000 { blackHole(coffer_key_anchor_verify(keys.evpKey.pointer, pss ? 1 : 0, message, message.count, signature, signature.count)) }
        }
    }
}
