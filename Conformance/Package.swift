// swift-tools-version:6.1
// Coffer's conformance harnesses, a package apart so that the main package and its CI never build
// them. `coffer-limbo` runs X509Kit's CertificateVerifier over x509-limbo's limbo.json and writes
// limbo's LimboResult JSON:
//
//     swift run --package-path Conformance coffer-limbo LIMBO_JSON RESULT_JSON
import PackageDescription

let package = Package(
    name: "CofferConformance",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Coffer", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "coffer-limbo",
            dependencies: [
                .product(name: "X509Kit", package: "Coffer"),
                .product(name: "AsymmetricKeys", package: "Coffer"),
                .product(name: "ASN1Kit", package: "Coffer"),
                .product(name: "CofferJSON", package: "Coffer"),
            ],
            path: "Sources/coffer-limbo",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
