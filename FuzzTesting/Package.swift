// swift-tools-version:6.1
// libFuzzer targets for Coffer's parsers, one executable per parser. Build and run them with
// `tools/fuzz TARGET SECONDS [JOBS]` from the repository root; the flags it passes are
// `-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library`.
//
// To add a target: create `Sources/FuzzNAME/FuzzNAME.swift` with a
// `@_cdecl("LLVMFuzzerTestOneInput")` function and add one line to `fuzzTargets` below.
import PackageDescription

/// Each fuzz target and the Coffer products it exercises.
let fuzzTargets: [(name: String, products: [String])] = [
    ("FuzzASN1Reader", ["ASN1Kit"]),
    ("FuzzPEM", ["ASN1Kit"]),
    ("FuzzPKCS8", ["AsymmetricKeys", "KeyCodec"]),
    ("FuzzPKCS8Encrypted", ["AsymmetricKeys", "ASN1Kit", "CryptoOpenSSL"]),
    ("FuzzOpenSSHPublicKey", ["AsymmetricKeys"]),
    ("FuzzKnownHosts", ["AsymmetricKeys", "KeyCodec"]),
    ("FuzzOpenSSHPrivateKey", ["AsymmetricKeys", "CryptoOpenSSL"]),
    ("FuzzRFC4716", ["AsymmetricKeys"]),
    ("FuzzSEC1", ["AsymmetricKeys"]),
    ("FuzzCurvePKCS8", ["AsymmetricKeys"]),
    ("FuzzCurveOpenSSH", ["AsymmetricKeys"]),
    ("FuzzStoreLoad", ["KVStorage"]),
    ("FuzzStoreSalvage", ["KVStorage"]),
    ("FuzzCMS", ["DownloadPipeline", "AsymmetricKeys", "KeyCodec"]),
    ("FuzzHTTPFields", ["DownloadPipeline"]),
    ("FuzzProxyReply", ["DownloadPipeline"]),
    ("FuzzHTTPCache", ["DownloadPipeline"]),
    ("FuzzJWK", ["AsymmetricKeys", "CofferJSON"]),
    ("FuzzPKCS12", ["AsymmetricKeys", "CryptoOpenSSL", "KeyCodec"]),
    ("FuzzX509", ["AsymmetricKeys", "ASN1Kit", "CryptoOpenSSL", "KeyCodec", "X509Kit"]),
    ("FuzzPPK", ["AsymmetricKeys", "ASN1Kit", "CryptoOpenSSL"]),
    ("FuzzPKCS7", ["AsymmetricKeys", "ASN1Kit", "KeyCodec"]),
    ("FuzzSSHCertificate", ["AsymmetricKeys"]),
    ("FuzzSSHSignature", ["AsymmetricKeys"]),
    ("FuzzBubbleBabble", ["AsymmetricKeys"]),
    ("FuzzCertificateBuilderInput", ["X509Kit", "AsymmetricKeys", "ASN1Kit"]),
    ("FuzzCRL", ["X509Kit", "AsymmetricKeys", "ASN1Kit"]),
    ("FuzzPeerIdentity", ["X509Kit", "AsymmetricKeys"]),
    ("FuzzCertificateVerifier", ["X509Kit", "AsymmetricKeys"]),
    ("FuzzJWS", ["JOSE", "CofferJSON"]),
    ("FuzzJWE", ["JOSE", "CofferJSON", "CryptoOpenSSL"]),
    ("FuzzJWTClaims", ["JOSE", "CofferJSON"]),
]

let package = Package(
    name: "CofferFuzzTesting",
    platforms: [.macOS(.v15)],
    products: fuzzTargets.map { .executable(name: $0.name, targets: [$0.name]) },
    dependencies: [
        .package(name: "Coffer", path: ".."),
    ],
    targets: [
        // The oracle the parser targets share (KeyError's, and JOSE's through FuzzJOSESupport).
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "AsymmetricKeys", package: "Coffer"), .product(name: "KeyCodec", package: "Coffer"),
                           .product(name: "X509Kit", package: "Coffer")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Input layout, scratch files and oracle of the store targets.
        .target(
            name: "FuzzStoreSupport",
            dependencies: [.product(name: "KVStorage", package: "Coffer"), .product(name: "CryptoOpenSSL", package: "Coffer")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Oracle, constant keys and seed writer of the JOSE targets.
        .target(
            name: "FuzzJOSESupport",
            dependencies: ["FuzzSupport", .product(name: "JOSE", package: "Coffer"), .product(name: "CofferJSON", package: "Coffer")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ] + fuzzTargets.map { target in
        .executableTarget(
            name: target.name,
            dependencies: target.products.map { .product(name: $0, package: "Coffer") }
                + (target.products.contains("AsymmetricKeys") ? ["FuzzSupport"] : [])
                + (target.products.contains("KVStorage") ? ["FuzzStoreSupport"] : [])
                + (target.products.contains("JOSE") ? ["FuzzJOSESupport"] : []),
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    }
)
