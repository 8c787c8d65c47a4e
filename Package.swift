// swift-tools-version:6.1
import PackageDescription

/// Swift 6 language mode, and MemberImportVisibility: a file sees only the members of the modules it
/// imports itself, so an undeclared import fails the build instead of leaking in from a sibling file.
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// Release links of the command-line tools on Linux, for start-up time (tools/cli-startup): lld
/// (shipped with the Swift toolchain) with packed relative relocations (DT_RELR, glibc 2.36+),
/// and libstdc++ from its static archive through the linker script in tools/static-libstdc++, so
/// a tool built with --static-swift-stdlib loads no C++ runtime at start. Debug builds, tests and
/// the library products are not affected.
let toolLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                  "-L", Context.packageDirectory + "/tools/static-libstdc++"],
                 .when(platforms: [.linux], configuration: .release)),
]

let package = Package(
    name: "Coffer",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CofferErrors", targets: ["CofferErrors"]),
        .library(name: "ASN1Kit", targets: ["ASN1Kit"]),
        .library(name: "CofferJSON", targets: ["CofferJSON"]),
        .library(name: "CryptoOpenSSL", targets: ["CryptoOpenSSL"]),
        .library(name: "AsymmetricKeys", targets: ["AsymmetricKeys"]),
        .library(name: "X509Kit", targets: ["X509Kit"]),
        .library(name: "KeyCodec", targets: ["KeyCodec"]),
        .library(name: "KVStorage", targets: ["KVStorage"]),
        .library(name: "DownloadPipeline", targets: ["DownloadPipeline"]),
        .library(name: "JOSE", targets: ["JOSE"]),
        .library(name: "JWKSClient", targets: ["JWKSClient"]),
        .executable(name: "keytool", targets: ["keytool"]),
        .executable(name: "keytool-fetch", targets: ["keytool-fetch"]),
        .executable(name: "kvstore", targets: ["kvstore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // NetworkTransport is built on swift-nio: NIOPosix (sockets), NIOHTTP1, NIOHTTP2 (client
        // and the tests' servers), NIOSSL (TLS with Coffer's trust roots, identity and pins).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Tests only: the server side of multipart/form-data uploads is parsed with it.
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
    ],
    targets: [
        // System libraries
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),

        // Libraries
        // The one error shape every library's error type conforms to.
        .target(name: "CofferErrors", swiftSettings: strict),
        .target(name: "ASN1Kit", dependencies: ["CofferErrors"], swiftSettings: strict),
        .target(name: "CofferJSON", dependencies: ["CofferErrors"], swiftSettings: strict),
        .target(name: "CryptoOpenSSL", dependencies: ["CofferErrors", "COpenSSL"], swiftSettings: strict),
        .target(name: "AsymmetricKeys", dependencies: ["CofferErrors", "ASN1Kit", "CofferJSON", "CryptoOpenSSL"], swiftSettings: strict),
        // All of X.509 (certificates, requests, CRLs, names, extensions; building and verifying),
        // above the keys that certificates certify.
        .target(name: "X509Kit", dependencies: ["CofferErrors", "ASN1Kit", "AsymmetricKeys", "CryptoOpenSSL"], swiftSettings: strict),
        // Any file of keys and certificates, its format detected (KeyDecoder, KeyEncoder), and trust
        // stores: above both the keys and X.509, the one place that knows every container.
        .target(name: "KeyCodec", dependencies: ["CofferErrors", "ASN1Kit", "CofferJSON", "CryptoOpenSSL", "AsymmetricKeys", "X509Kit"], swiftSettings: strict),
        // JWS, JWE, JWT and JWK Sets over the keys; CZlib for JWE's `zip: DEF`.
        .target(name: "JOSE", dependencies: ["CofferErrors", "ASN1Kit", "CofferJSON", "CryptoOpenSSL", "AsymmetricKeys", "KeyCodec", "CZlib"], swiftSettings: strict),
        // A SIGBUS guard for shared mappings (a signal handler must be C).
        .target(name: "CMappingGuard"),
        .target(name: "KVStorage", dependencies: ["CofferErrors", "CryptoOpenSSL", "CZlib", "CMappingGuard"], swiftSettings: strict),
        .target(
            name: "DownloadPipeline",
            dependencies: [
                "CofferErrors", "ASN1Kit", "AsymmetricKeys", "CofferJSON", "CryptoOpenSSL", "KVStorage",
                // X509Kit: the RFC 6125 host name check of every TLS connection (PeerIdentity);
                // KeyCodec: trust stores and client identities read from files.
                "X509Kit", "KeyCodec",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // NIOPosix: the connections, and DNS for socks5:// (resolved here).
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                // NIOHTTP2: HTTP/2 connections and their streams.
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ],
            swiftSettings: strict
        ),

        // An issuer's JWK Set over HTTP, kept by the download pipeline's cache: JOSE's keys, fetched.
        .target(name: "JWKSClient", dependencies: ["CofferErrors", "JOSE", "DownloadPipeline"], swiftSettings: strict),

        // Command-line tools. None links full Foundation (the libraries use FoundationEssentials at
        // most); keytool-fetch holds the HTTP client: `keytool fetch` runs it, so the other keytool
        // commands start without it.
        // What the tools share, package-internal: how a tool starts, reports failures and exits,
        // libc I/O and secret input (CommandLineSupport); keytool's key loading and passphrase
        // options (KeytoolSupport).
        .target(
            name: "CommandLineSupport",
            dependencies: [
                "CofferJSON", "CryptoOpenSSL",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "KeytoolSupport",
            dependencies: [
                "ASN1Kit", "AsymmetricKeys", "CommandLineSupport", "CryptoOpenSSL", "KeyCodec",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        // keytool's JOSE commands (jws, jwe, jwt), package-internal: keytool runs them, and so does
        // keytool-fetch when --jwks names a URL (it installs the remote key source).
        .target(
            name: "KeytoolJOSE",
            dependencies: [
                "ASN1Kit", "AsymmetricKeys", "CofferJSON", "CommandLineSupport", "CryptoOpenSSL", "JOSE", "KeyCodec", "KeytoolSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "keytool",
            dependencies: [
                "ASN1Kit", "AsymmetricKeys", "CofferErrors", "CofferJSON", "CommandLineSupport", "CryptoOpenSSL", "KeyCodec", "KeytoolSupport", "X509Kit",
                "KeytoolJOSE",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict,
            linkerSettings: toolLinkerSettings
        ),
        .executableTarget(
            name: "keytool-fetch",
            dependencies: [
                "ASN1Kit", "AsymmetricKeys", "CofferErrors", "CofferJSON", "CommandLineSupport", "CryptoOpenSSL", "DownloadPipeline", "KeyCodec", "KeytoolSupport", "X509Kit",
                "JOSE", "JWKSClient", "KeytoolJOSE",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict,
            linkerSettings: toolLinkerSettings
        ),
        .executableTarget(
            name: "kvstore",
            dependencies: [
                "ASN1Kit", "CofferErrors", "CofferJSON", "CommandLineSupport", "CryptoOpenSSL", "KVStorage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict,
            linkerSettings: toolLinkerSettings
        ),

        // Tests
        // What several test targets need: running programs, deterministic inputs.
        .target(name: "CofferTestSupport", path: "Tests/CofferTestSupport", swiftSettings: strict),
        .testTarget(name: "CofferErrorsTests", dependencies: ["CofferErrors"], swiftSettings: strict),
        .testTarget(name: "ASN1KitTests", dependencies: ["ASN1Kit", "CofferErrors", "CofferTestSupport"], swiftSettings: strict),
        .testTarget(name: "CofferJSONTests", dependencies: ["CofferJSON", "CofferErrors"], swiftSettings: strict),
        .testTarget(name: "CryptoOpenSSLTests", dependencies: ["CryptoOpenSSL", "CofferErrors", "CofferTestSupport"], swiftSettings: strict),
        .testTarget(name: "AsymmetricKeysTests", dependencies: ["AsymmetricKeys", "KeyCodec", "X509Kit", "ASN1Kit", "CofferErrors", "CofferJSON", "CryptoOpenSSL", "CofferTestSupport"], swiftSettings: strict),
        .testTarget(name: "X509KitTests", dependencies: ["X509Kit", "KeyCodec", "AsymmetricKeys", "ASN1Kit", "CofferErrors", "CofferJSON", "CryptoOpenSSL", "CofferTestSupport"], swiftSettings: strict),
        .testTarget(name: "JOSETests", dependencies: ["JOSE", "KeyCodec", "X509Kit", "AsymmetricKeys", "ASN1Kit", "CofferErrors", "CofferJSON", "CryptoOpenSSL", "CofferTestSupport"], swiftSettings: strict),
        .testTarget(name: "KVStorageTests", dependencies: ["KVStorage", "CofferErrors", "CryptoOpenSSL", "CofferTestSupport", "CMappingGuard"], swiftSettings: strict),
        .testTarget(
            name: "DownloadPipelineTests",
            dependencies: [
                "DownloadPipeline", "AsymmetricKeys", "CofferErrors", "CryptoOpenSSL", "ASN1Kit", "KVStorage", "CofferTestSupport", "KeyCodec", "X509Kit",
                "CofferJSON", "JOSE", "JWKSClient",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "KeytoolTests", dependencies: ["keytool", "keytool-fetch", "KeytoolSupport", "X509Kit", "KeyCodec", "AsymmetricKeys", "DownloadPipeline", "CryptoOpenSSL", "CofferTestSupport"], swiftSettings: strict),
        .testTarget(name: "KvstoreTests", dependencies: ["kvstore", "KVStorage", "CofferTestSupport"], swiftSettings: strict),
    ]
)
