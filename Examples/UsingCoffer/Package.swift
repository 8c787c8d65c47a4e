// swift-tools-version:6.1
// The README's examples as one program, built against the Coffer package in this repository.
//
//   cd Examples/UsingCoffer
//   swift build --scratch-path .build-examples
//   .build-examples/debug/UsingCoffer ../..      # the argument is the repository root (for Fixtures/)
//
// It uses ASN1Kit, CofferJSON, CryptoOpenSSL, AsymmetricKeys, JOSE and KVStorage; DownloadPipeline (which brings in
// SwiftNIO) is left out to keep the build small.
import PackageDescription

let package = Package(
    name: "UsingCoffer",
    platforms: [.macOS(.v15)],
    dependencies: [
        // In your own package: .package(url: "https://github.com/coffer-dev/coffer", from: "…") (placeholder URL).
        .package(name: "Coffer", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "UsingCoffer",
            dependencies: [
                .product(name: "ASN1Kit", package: "Coffer"),
                .product(name: "CofferJSON", package: "Coffer"),
                .product(name: "CryptoOpenSSL", package: "Coffer"),
                .product(name: "AsymmetricKeys", package: "Coffer"),
                .product(name: "KVStorage", package: "Coffer"),
                .product(name: "JOSE", package: "Coffer"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
