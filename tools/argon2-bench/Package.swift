// swift-tools-version:6.1
// The Swift side of tools/bench-argon2: a release build of one small program over Coffer's
// CryptoOpenSSL (its Argon2), apart from the main package and from Benchmarks/ so that timing it
// builds nothing else. The libargon2 side is argon2-time.c, which the script compiles with cc.
import PackageDescription

let package = Package(
    name: "Argon2Bench",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Coffer", path: "../..")],
    targets: [
        .executableTarget(
            name: "argon2-time-swift",
            dependencies: [.product(name: "CryptoOpenSSL", package: "Coffer")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
