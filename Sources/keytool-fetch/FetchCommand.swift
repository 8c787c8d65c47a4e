import ArgumentParser

import DownloadPipeline
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AsymmetricKeys
import Synchronization
import CofferErrors
import CommandLineSupport
import KeytoolSupport

/// `keytool fetch URL --key K [--scheme S] [--base64] [--header 'Name: value']… [-o OUT]
/// [--cache DIR] [--resume] [--retry N] [--sha256 HEX]`, or `keytool fetch --batch FILE
/// --output-dir DIR [--parallel N] [--fail-fast | --keep-going] …`: the download pipeline from the
/// command line.
///
/// Its own program, `keytool-fetch`, which `keytool fetch` runs in its place: the HTTP client and
/// Foundation it needs stay out of `keytool`, so every other command starts without them.
@main
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keytool fetch",
        abstract: "Download a payload, decrypt it and write it (the download pipeline).",
        discussion: """
            Schemes: auto (default: CMS when the payload is a CMS ContentInfo, otherwise an error \
            asking for a scheme), cms, rsa-oaep-sha256, rsa-oaep-sha1, rsa-pkcs1, rsa-public \
            (public-key recovery of private-key-encrypted data), none. --base64 strips a base64 \
            wrapper first. The result goes to standard output, or to -o OUT (mode 0600). With \
            --resume an interrupted download continues from OUT.part. A progress bar is drawn on \
            standard error when it is a terminal. Each failure (bad status, truncated body, \
            timeout, wrong key, tampered data, digest mismatch) exits 1 with its own message. \
            Transport failures, timeouts and HTTP 408/429/5xx are retried (--retry, default 3) with \
            exponential backoff, honouring Retry-After; a cut download resumes with a range request. \
            --batch FILE fetches every line 'URL [sha256=HEX] [out=NAME]' into --output-dir, \
            --parallel at a time, and prints one line per URL (ok or failed, and why); it exits 0 \
            only when every download succeeded. The result is never held in memory: -o OUT \
            is written through a temporary file beside OUT that is renamed over it at the end \
            (a failed download leaves OUT untouched; a symbolic link at OUT is refused), and \
            standard output is written as the bytes are decrypted.
            """,
        version: CofferVersion.string
    )

    @Argument(help: "The http or https URL (not with --batch).", transform: FetchCommand.url)
    var url: URL?

    @Option(help: "The key file: private, or public for --scheme rsa-public. Not needed with --scheme none.")
    var key: String?

    @Option(help: ArgumentHelp("How the payload is encrypted (see below).", valueName: "scheme"))
    var scheme: DecryptionScheme = .auto

    @Flag(help: "Strip a base64 wrapper before decrypting.")
    var base64 = false

    @Option(name: .customLong("header"), help: ArgumentHelp("A request header, 'Name: value' (repeatable).", valueName: "header"),
            transform: FetchHeader.init(argument:))
    var headers: [FetchHeader] = []

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the result to this file (mode 0600) instead of standard output.", valueName: "file"))
    var output: String?

    @OptionGroup var cacheOptions: FetchCacheOptions

    @Flag(help: "Continue an interrupted download from OUT.part (needs -o).")
    var resume = false

    @Option(help: ArgumentHelp("Total timeout in seconds.", valueName: "seconds"))
    var timeout: Double = 300

    @Option(name: .customLong("connect-timeout"), help: ArgumentHelp("Connect timeout in seconds.", valueName: "seconds"))
    var connectTimeout: Double = 10

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp("Timeout in seconds while no data arrives.", valueName: "seconds"))
    var idleTimeout: Double = 30

    @Option(help: ArgumentHelp("Retries after a failed attempt (transport failure, timeout, HTTP 408/429/5xx).", valueName: "n"))
    var retry: Int = 3

    @Option(help: ArgumentHelp("The SHA-256 the downloaded body must have (64 hex digits); nothing is written on a mismatch.",
                               valueName: "hex"),
            transform: { try FetchDigestOption.parse($0, what: "--sha256") { ValidationError($0) } })
    var sha256: [UInt8]?

    @Option(help: ArgumentHelp("Fetch every 'URL [sha256=HEX] [out=NAME]' line of this file (needs --output-dir).", valueName: "file"))
    var batch: String?

    @Option(name: .customLong("output-dir"), help: ArgumentHelp("Where --batch writes its files (mode 0600).", valueName: "dir"))
    var outputDirectory: String?

    @Option(help: ArgumentHelp("Downloads of a --batch running at once.", valueName: "n"))
    var parallel: Int = 4

    @Flag(help: "What a failed download does to the rest of a --batch.")
    var batchPolicy: FetchBatchPolicy = .keepGoing

    @OptionGroup var passphrase: PassphraseOptions

    @OptionGroup var request: FetchRequestOptions

    @OptionGroup var log: LogOptions
    @OptionGroup(title: "Transport security and proxies") var transportOptions: FetchTransportOptions

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--jose" { await FetchJOSECommand.main(Array(arguments.dropFirst())) }
        await CommandLineTool.main(FetchCommand.self, name: "keytool")
    }

    func validate() throws {
        if let index = headers.firstIndex(where: { $0.problem != nil }), let problem = headers[index].problem {
            // The argument itself is not repeated: a header value is often a token.
            throw ValidationError("--header must be 'Name: value'; header \(index + 1) \(problem)")
        }
        if cacheOptions.isMaintenance {
            guard url == nil, batch == nil else { throw ValidationError("--cache-stats, --cache-remove and --cache-trim take no URL or --batch") }
            return
        }
        if key == nil, scheme != .none {
            throw ValidationError("--key is required (except with --scheme none)")
        }
        if batch != nil {
            guard url == nil else { throw ValidationError("give either a URL or --batch FILE, not both") }
            guard outputDirectory != nil else { throw ValidationError("--batch needs --output-dir DIR") }
            guard !request.sendsBody, request.method == nil else {
                throw ValidationError("--method, --data-file, --json-file and --form are for a single URL, not --batch")
            }
            guard output == nil, !resume, sha256 == nil else {
                throw ValidationError("-o, --resume and --sha256 are for a single URL; a --batch line takes sha256=HEX and out=NAME")
            }
        } else {
            guard url != nil else { throw ValidationError("a URL (or --batch FILE) is required") }
            guard outputDirectory == nil else { throw ValidationError("--output-dir is for --batch; use -o FILE") }
        }
        guard parallel >= 1 else { throw ValidationError("--parallel must be at least 1") }
        guard (0...100).contains(retry) else { throw ValidationError("--retry must be between 0 and 100") }
        if resume, output == nil || output == "-" {
            throw ValidationError("--resume needs -o FILE (the partial download is kept in FILE.part)")
        }
        guard timeout > 0, connectTimeout > 0, idleTimeout > 0 else {
            throw ValidationError("timeouts must be positive")
        }
    }

    func run() async throws {
        if cacheOptions.isMaintenance {
            SystemIO.writeStandardOutput(try cacheOptions.runMaintenance())
            return
        }
        let decryptor = try makeDecryptor()
        if let batch {
            try await runBatch(batch, decryptor: decryptor)
            return
        }
        guard let url else { return }
        var request = DownloadRequest(url: url, headers: headers.map(\.field), decryptor: decryptor,
                                      destination: try FetchOutput.destination(for: output))
        request.totalTimeout = .milliseconds(Int(timeout * 1000))
        request.expectedSHA256 = sha256
        if resume, let output { request.resumeFile = output + ".part" }
        let progressBar = SystemIO.standardErrorIsTerminal ? ProgressBar() : nil
        if let progressBar {
            request.progress = { progressBar.draw($0) }
        }
        request.cachePolicy = cacheOptions.policy
        try self.request.apply(to: &request)
        let logger = log.makeLogger(label: "keytool-fetch")
        let retryPolicy = RetryPolicy(retries: retry)
        do {
            // The result streams to its destination (FetchOutput) as it is decrypted.
            _ = try await Self.withDownloader(transport: transportConfiguration, cacheDirectory: cacheOptions.cache,
                                              cacheLimits: cacheOptions.limits, configuration: {
                .init(totalTimeout: nil, cache: $0, retryPolicy: retryPolicy, logger: logger)
            }) { downloader throws(DownloadError) in
                // The bar's line ends before an error is written.
                defer { progressBar?.end() }
                return try await FetchInterruption.run(downloader) { [request] () async throws(DownloadError) in
                    try await downloader.result(for: request)
                }
            }
        } catch {
            guard let hint = Self.schemeHint(for: error) else { throw error }
            throw CommandError("\(error); \(hint)")
        }
    }

    /// The way out on the command line when `--scheme auto` could not tell the scheme from the
    /// payload; `nil` for any other failure.
    static func schemeHint(for error: DownloadError) -> String? {
        guard error.decryptionError?.code == .unknownScheme else { return nil }
        return "give --scheme (\(DecryptionScheme.allCases.map(\.rawValue).joined(separator: ", ")))"
    }

    /// The decryptor for `--scheme`, with the key loaded.
    func makeDecryptor() throws -> any Decryptor {
        let rsaKey: AsymmetricKey?
        if let key, scheme != .none {
            rsaKey = scheme == .rsaPublic
                ? .publicKey(.rsa(try KeyLoader.loadRSAPublic(key, passphrase: passphrase, for: "keytool fetch")))
                : .privateKey(.rsa(try KeyLoader.loadPrivateRSA(key, passphrase: passphrase, for: "keytool fetch")))
        } else {
            rsaKey = nil
        }
        do {
            return try scheme.makeDecryptor(key: rsaKey, base64: base64)
        } catch {
            throw CommandError("\(key ?? "key"): \(error)")
        }
    }

    /// The transport settings from the timeout and transport options (trust roots and client
    /// identity read from their files).
    var transportConfiguration: NetworkTransport.Configuration {
        get throws(DownloadError) {
            var configuration = NetworkTransport.Configuration(connectTimeout: .milliseconds(Int(connectTimeout * 1000)),
                                                                       idleReadTimeout: .milliseconds(Int(idleTimeout * 1000)),
                                                                       maximumConnectionsPerHost: max(16, parallel))
            try transportOptions.apply(to: &configuration, passphrase: passphrase)
            return configuration
        }
    }

    /// `URL` as given, or a usage error when it does not parse as one.
    static func url(_ text: String) throws -> URL {
        guard let url = URL(string: text) else { throw ValidationError("not a URL") }
        return url
    }

    /// Runs `body` with a downloader over ``NetworkTransport`` (and the download cache in
    /// `cacheDirectory`, when given); the transport and the cache are shut down afterwards.
    static func withDownloader<T>(
        transport transportConfiguration: NetworkTransport.Configuration, cacheDirectory: String?,
        cacheLimits: CacheLimits = .unlimited, configuration: (DownloadCache?) -> Downloader.Configuration,
        _ body: (Downloader) async throws(DownloadError) -> T
    ) async throws(DownloadError) -> T {
        let transport = NetworkTransport(configuration: transportConfiguration)
        var downloadCache: DownloadCache?
        do {
            if let cacheDirectory { downloadCache = try DownloadCache(directory: cacheDirectory, limits: cacheLimits) }
        } catch {
            try? await transport.shutdown()
            throw error
        }
        defer { downloadCache?.close() }
        do {
            let result = try await body(Downloader(transport: transport, configuration: configuration(downloadCache)))
            try? await transport.shutdown()
            return result
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    /// `[#####.....]  45%  1.2 MB / 2.6 MB` redrawn in place on standard error.
    final class ProgressBar: Sendable {
        private let drawn = Mutex(false)

        func draw(_ progress: DownloadProgress) {
            let width = 30
            var line = "\r"
            if let fraction = progress.fraction { line += ProgressText.bar(fraction, width: width) }
            line += ProgressText.amounts(received: progress.received, expected: progress.expected)
            drawn.withLock { $0 = true }
            SystemIO.writeStandardError(line + "   ")
        }

        func end() {
            if drawn.withLock({ $0 }) { SystemIO.writeStandardError("\n") }
        }
    }
}

extension DecryptionScheme: ExpressibleByArgument {}
