// swift-tools-version:6.1
// Coffer's benchmarks (ordo-one/benchmark), a package apart so that the main package and its CI
// never build them. Run them with `tools/bench [FILTER]` from the repository root.
//
// To add a benchmark suite: create `Benchmarks/NAME/NAME.swift` (the plugin finds sources there)
// and add one entry to `benchmarkSuites` below with the products it needs. C anchors (the reference
// implementation measured in the same run) go in a C target under `Sources/`.
import PackageDescription

/// Each benchmark executable and its dependencies besides `Benchmark` itself.
let benchmarkSuites: [(name: String, dependencies: [Target.Dependency])] = [
    ("ASN1Benchmarks", [
        .product(name: "ASN1Kit", package: "Coffer"),
        .product(name: "SwiftASN1", package: "swift-asn1"),
        "COpenSSLAnchors",
    ]),
    ("KeyBenchmarks", [
        .product(name: "AsymmetricKeys", package: "Coffer"),
        .product(name: "KeyCodec", package: "Coffer"),
        .product(name: "CryptoOpenSSL", package: "Coffer"),
        "CKeyAnchors",
    ]),
    ("StoreBenchmarks", [.product(name: "KVStorage", package: "Coffer"), "CSQLite"]),
    ("PipelineBenchmarks", [
        .product(name: "DownloadPipeline", package: "Coffer"),
        .product(name: "AsymmetricKeys", package: "Coffer"),
        .product(name: "KeyCodec", package: "Coffer"),
        .product(name: "CryptoOpenSSL", package: "Coffer"),
    ]),
    ("JOSEBenchmarks", [
        .product(name: "JOSE", package: "Coffer"),
        .product(name: "AsymmetricKeys", package: "Coffer"),
        .product(name: "KeyCodec", package: "Coffer"),
        .product(name: "CofferJSON", package: "Coffer"),
        .product(name: "CryptoOpenSSL", package: "Coffer"),
        .product(name: "JWTKit", package: "jwt-kit"),
    ]),
    ("CertificateBenchmarks", [
        .product(name: "X509Kit", package: "Coffer"),
        .product(name: "AsymmetricKeys", package: "Coffer"),
        .product(name: "KeyCodec", package: "Coffer"),
        .product(name: "ASN1Kit", package: "Coffer"),
        .product(name: "X509", package: "swift-certificates"),
        "CCertificateAnchors",
    ]),
]

let package = Package(
    name: "CofferBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Coffer", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates", exact: "1.21.1"),
        // The JOSE benchmarks' anchor and interop peer (tools/jose-interop).
        .package(url: "https://github.com/vapor/jwt-kit", exact: "5.8.0"),
    ],
    targets: [
        // Anchors: OpenSSL doing the same work as Coffer, called from the same benchmark binary.
        .target(
            name: "COpenSSLAnchors",
            path: "Sources/COpenSSLAnchors",
            linkerSettings: [.linkedLibrary("crypto")]
        ),
        .target(
            name: "CKeyAnchors",
            path: "Sources/CKeyAnchors",
            linkerSettings: [.linkedLibrary("crypto")]
        ),
        .target(
            name: "CCertificateAnchors",
            path: "Sources/CCertificateAnchors",
            linkerSettings: [.linkedLibrary("crypto")]
        ),
        // jwt-kit alone signing and verifying tokens, for tools/jose-interop.
        .executableTarget(
            name: "JWTKitPeer",
            dependencies: [.product(name: "JWTKit", package: "jwt-kit")],
            path: "Sources/JWTKitPeer",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The system SQLite, the store benchmarks' anchor.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
    ] + benchmarkSuites.map { suite in
        .executableTarget(
            name: suite.name,
            dependencies: [.product(name: "Benchmark", package: "benchmark")] + suite.dependencies,
            path: "Benchmarks/\(suite.name)",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    }
)
