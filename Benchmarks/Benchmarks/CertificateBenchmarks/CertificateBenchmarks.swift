// Verifying a 3-certificate chain (root, intermediate, leaf) for a TLS server name against a
// 140-root store (the Debian bundle's 139 roots plus the chain's own root), RSA-2048, ECDSA
// P-256 and Ed25519, in the same run:
//   Coffer        X509Kit's CertificateVerifier (RFC 5280 profile, server-auth purpose, DNS name)
//   OpenSSL       X509_verify_cert (X509_STORE built once; per iteration an X509_STORE_CTX with
//                 the leaf and the untrusted intermediate, time, host and SSL-server purpose)
//   swift-certs   swift-certificates' Verifier with RFC5280Policy and ServerIdentityPolicy
// Every iteration of every contender parses the leaf and the intermediate from DER, as a TLS
// client does with what the server sent; the 140 roots are parsed once, before timing.
// "Parse …" times that parsing alone (X509Kit.Certificate, d2i_X509, X509.Certificate(derEncoded:)), the
// part of each verification that is not path validation.
// The chains are made by tools/make-bench-chains; every contender's answer is checked before
// anything is timed.
import Benchmark
import CCertificateAnchors
import Foundation
@_spi(FixedExpiryValidationTime) import X509
import AsymmetricKeys
import X509Kit

let benchmarks: @Sendable () -> Void = {
    let fixtures = CertificateFixtures.load()
    let time = CertificateFixtures.time
    let host = CertificateFixtures.host

    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .microseconds,
        warmupIterations: 10,
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 20_000
    )

    for chain in fixtures.chains {
        let parseLabel = "Parse \(chain.name) leaf and intermediate"
        Benchmark("\(parseLabel): Coffer Certificate") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try X509Kit.Certificate(derEncoded: chain.leaf[...]))
                blackHole(try X509Kit.Certificate(derEncoded: chain.intermediate[...]))
            }
        }
        Benchmark("\(parseLabel): OpenSSL d2i_X509") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(coffer_certificate_anchor_parse(chain.leaf, chain.leaf.count, chain.intermediate, chain.intermediate.count))
            }
        }
        Benchmark("\(parseLabel): swift-certificates Certificate") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try X509.Certificate(derEncoded: chain.leaf))
                blackHole(try X509.Certificate(derEncoded: chain.intermediate))
            }
        }

        // 140 roots with Debian's bundle of 2026 (139); the name says how many there were.
        let rootDERs = fixtures.bundleRoots + [chain.root]
        let label = "Verify \(chain.name) chain, \(rootDERs.count) roots"

        // Coffer.
        let cofferRoots = rootDERs.compactMap { try? X509Kit.Certificate(derEncoded: $0[...]) }
        precondition(cofferRoots.count == rootDERs.count, "Coffer parsed \(cofferRoots.count) of \(rootDERs.count) roots")
        let verifier = CertificateVerifier(roots: cofferRoots)
        let options = VerificationOptions(time: time, peer: .dns(host), purpose: .serverAuth)
        @Sendable func cofferVerify() throws -> Bool {
            let leaf = try X509Kit.Certificate(derEncoded: chain.leaf[...])
            let intermediate = try X509Kit.Certificate(derEncoded: chain.intermediate[...])
            return verifier.verify(leaf, untrusted: [intermediate], options: options).isValid
        }
        // Until the path validator is in (X509Kit's CertificateVerifier is a skeleton before it),
        // Coffer's benchmark is left out with a note rather than timing a wrong answer.
        if (try? cofferVerify()) == true {
            Benchmark("\(label): Coffer CertificateVerifier") { benchmark in
                for _ in benchmark.scaledIterations { blackHole(try cofferVerify()) }
            }
        } else {
            let leaf = try! X509Kit.Certificate(derEncoded: chain.leaf[...])
            let intermediate = try! X509Kit.Certificate(derEncoded: chain.intermediate[...])
            let result = verifier.verify(leaf, untrusted: [intermediate], options: options)
            let reasons = result.failedPaths.flatMap(\.failures).map(\.description).joined(separator: "; ")
            FileHandle.standardError.write(Data(
                "CertificateBenchmarks: Coffer rejects the \(chain.name) chain (\(reasons)); its benchmark is skipped\n".utf8))
        }

        // OpenSSL.
        let store = coffer_certificate_anchor_store_new()!
        for der in rootDERs { precondition(coffer_certificate_anchor_store_add(store, der, der.count) == 1) }
        precondition(coffer_certificate_anchor_store_count(store) == Int32(rootDERs.count),
                     "OpenSSL store holds \(coffer_certificate_anchor_store_count(store)) roots")
        var error: Int32 = 0
        let check = coffer_certificate_anchor_verify(store, chain.leaf, chain.leaf.count, chain.intermediate,
                                                     chain.intermediate.count, time, host, &error)
        precondition(check == 1, "X509_verify_cert rejects the \(chain.name) chain: error \(error)")
        let storeBox = StoreBox(store)
        Benchmark("\(label): OpenSSL X509_verify_cert") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(coffer_certificate_anchor_verify(storeBox.pointer, chain.leaf, chain.leaf.count, chain.intermediate,
                                                           chain.intermediate.count, time, host, nil))
            }
        }

        // swift-certificates.
        let swiftRoots = CertificateStore(rootDERs.map { try! X509.Certificate(derEncoded: $0) })
        let validationTime = Date(timeIntervalSince1970: TimeInterval(time))
        @Sendable func swiftCertificatesVerify() async throws -> Bool {
            let leaf = try X509.Certificate(derEncoded: chain.leaf)
            let intermediate = try X509.Certificate(derEncoded: chain.intermediate)
            var verifier = Verifier(rootCertificates: swiftRoots) {
                RFC5280Policy(fixedExpiryValidationTime: validationTime)
                ServerIdentityPolicy(serverHostname: host, serverIP: nil)
            }
            let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate]))
            if case .validCertificate = result { return true }
            return false
        }
        Benchmark("\(label): swift-certificates Verifier") { benchmark in
            let valid = try await swiftCertificatesVerify()
            precondition(valid, "swift-certificates rejects the \(chain.name) chain")
            for _ in benchmark.scaledIterations { blackHole(try await swiftCertificatesVerify()) }
        }
    }
}

/// The X509_STORE shared by the OpenSSL benchmark's iterations (read-only while verifying; OpenSSL
/// locks it internally).
final class StoreBox: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
}
