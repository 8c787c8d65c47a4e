// ASN1Kit against its anchors, on a 2048-bit PKCS#1 RSAPrivateKey (DESIGN.md, performance contracts):
//   parse into the nine INTEGERs  — Coffer target ≤ 200 ns and ≤ 2 mallocs
//   walk every TLV                — Coffer target ≤ 60 ns
//   encode the nine INTEGERs      — compared with swift-asn1's serializer
// Each sample runs the operation 1,000 times (scalingFactor .kilo); the table shows per-operation
// figures. Before anything is measured, every implementation's result is checked against the others,
// so a benchmark can never time a broken or short-circuited path.
import ASN1Kit
import Benchmark

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 1_000_000
    )

    let der = RSAKeyFixture.der
    let fields = InputCheck.verifiedFields(der)

    // (a) Parse into the nine INTEGER fields.
    Benchmark("Parse RSA-2048 PKCS#1: Coffer DERReader") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try CofferRSAKeyCodec.parse(der)) }
    }
    Benchmark("Parse RSA-2048 PKCS#1: swift-asn1 DER.sequence") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try SwiftASN1RSAKeyCodec.parse(der)) }
    }
    Benchmark("Parse RSA-2048 PKCS#1: OpenSSL d2i_RSAPrivateKey") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(OpenSSLAnchor.decodeRSAPrivateKey(der)) }
    }

    // (b) Walk every TLV.
    Benchmark("Walk TLVs: Coffer DERReader") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try CofferRSAKeyCodec.walk(der)) }
    }
    Benchmark("Walk TLVs: Coffer DERWalker") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try DERWalker.walk(der)) }
    }
    Benchmark("Walk TLVs: Coffer ASN1Tree (validating)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try CofferRSAKeyCodec.tree(der)) }
    }
    Benchmark("Walk TLVs: swift-asn1 DER.parse") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try SwiftASN1RSAKeyCodec.walk(der)) }
    }
    Benchmark("Walk TLVs: OpenSSL ASN1_get_object") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(OpenSSLAnchor.walk(der)) }
    }

    // (c) Encode the nine INTEGERs.
    Benchmark("Encode RSA-2048 PKCS#1: Coffer DERWriter") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(CofferRSAKeyCodec.encode(fields)) }
    }
    Benchmark("Encode RSA-2048 PKCS#1: swift-asn1 DER.Serializer") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try SwiftASN1RSAKeyCodec.encode(fields)) }
    }
}
