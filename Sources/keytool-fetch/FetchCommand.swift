import ArgumentParser
@_spi(Oracles) import DownloadPipeline
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AsymmetricKeys
import Dispatch
import Synchronization
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
struct FetchCommand: ParsableCommand {
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
            only when every download succeeded.
            """
    )

    @Argument(help: "The http or https URL (not with --batch).")
    var url: String?

    @Option(help: "The key file: private, or public for --scheme rsa-public. Not needed with --scheme none.")
    var key: String?

    @Option(help: ArgumentHelp("auto, cms, rsa-oaep-sha256, rsa-oaep-sha1, rsa-pkcs1, rsa-public or none.", valueName: "scheme"))
    var scheme: String = "auto"

    @Flag(help: "Strip a base64 wrapper before decrypting.")
    var base64 = false

    @Option(name: .customLong("header"), help: ArgumentHelp("A request header, 'Name: value' (repeatable).", valueName: "header"))
    var headers: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the result to this file (mode 0600) instead of standard output.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Cache downloads (still encrypted) in this directory, revalidated with ETag / Last-Modified.", valueName: "dir"))
    var cache: String?

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
                               valueName: "hex"))
    var sha256: String?

    @Option(help: ArgumentHelp("Fetch every 'URL [sha256=HEX] [out=NAME]' line of this file (needs --output-dir).", valueName: "file"))
    var batch: String?

    @Option(name: .customLong("output-dir"), help: ArgumentHelp("Where --batch writes its files (mode 0600).", valueName: "dir"))
    var outputDirectory: String?

    @Option(help: ArgumentHelp("Downloads of a --batch running at once.", valueName: "n"))
    var parallel: Int = 4

    @Flag(help: "What a failed download does to the rest of a --batch.")
    var batchPolicy: FetchBatchPolicy = .keepGoing

    @OptionGroup var passphrase: PassphraseOptions

    func validate() throws {
        guard let scheme = DecryptionScheme(rawValue: scheme) else {
            let names = DecryptionScheme.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("unknown --scheme \(self.scheme); use one of \(names)")
        }
        if key == nil, scheme != .none {
            throw ValidationError("--key is required (except with --scheme none)")
        }
        if batch != nil {
            guard url == nil else { throw ValidationError("give either a URL or --batch FILE, not both") }
            guard outputDirectory != nil else { throw ValidationError("--batch needs --output-dir DIR") }
            guard output == nil, !resume, sha256 == nil else {
                throw ValidationError("-o, --resume and --sha256 are for a single URL; a --batch line takes sha256=HEX and out=NAME")
            }
        } else {
            guard url != nil else { throw ValidationError("a URL (or --batch FILE) is required") }
            guard outputDirectory == nil else { throw ValidationError("--output-dir is for --batch; use -o FILE") }
        }
        guard parallel >= 1 else { throw ValidationError("--parallel must be at least 1") }
        guard (0...100).contains(retry) else { throw ValidationError("--retry must be between 0 and 100") }
        if let sha256 {
            _ = try FetchDigestOption.parse(sha256, what: "--sha256") { ValidationError($0) }
        }
        if resume, output == nil || output == "-" {
            throw ValidationError("--resume needs -o FILE (the partial download is kept in FILE.part)")
        }
        for header in headers where Self.parseHeader(header) == nil {
            throw ValidationError("--header must be 'Name: value', got '\(header.prefix(40))'")
        }
        guard timeout > 0, connectTimeout > 0, idleTimeout > 0 else {
            throw ValidationError("timeouts must be positive")
        }
    }

    func run() throws {
        try reportingFailures {
            let decryptor = try makeDecryptor()
            if let batch {
                try runBatch(batch, decryptor: decryptor)
                return
            }
            let url = url ?? ""
            guard let target = URL(string: url) else { throw CommandError("\(url): invalid URL") }
            var request = DownloadRequest(url: target, headers: headers.compactMap(Self.parseHeader), decryptor: decryptor)
            request.totalTimeout = .milliseconds(Int(timeout * 1000))
            if let sha256 {
                request.expectedSHA256 = try FetchDigestOption.parse(sha256, what: "--sha256") { CommandError($0) }
            }
            if resume, let output { request.resumeFile = output + ".part" }
            let progressBar = SystemIO.standardErrorIsTerminal ? ProgressBar() : nil
            if let progressBar {
                request.progress = { progressBar.draw($0) }
            }
            let cacheDirectory = cache
            if cacheDirectory != nil { request.cachePolicy = .enabled(storeDecrypted: false, revalidate: true) }
            let finalRequest = request
            let transportConfiguration = self.transportConfiguration
            let retryPolicy = RetryPolicy(retries: retry)
            let outcome = Self.withDownloader(transport: transportConfiguration, cacheDirectory: cacheDirectory, configuration: {
                .init(totalTimeout: nil, cache: $0, retryPolicy: retryPolicy)
            }) { downloader -> Result<DownloadResult, DownloadError> in
                do throws(DownloadError) {
                    return .success(try await downloader.result(for: finalRequest))
                } catch {
                    return .failure(error)
                }
            }
            progressBar?.end()
            let result = try outcome.get()
            try OutputFile.write(result.data, to: output, mode: 0o600)
        }
    }

    /// The decryptor for `--scheme`, with the key loaded.
    func makeDecryptor() throws -> any Decryptor {
        let scheme = DecryptionScheme(rawValue: scheme) ?? .auto
        let rsaKey: RSAKey?
        if let key, scheme != .none {
            rsaKey = scheme == .rsaPublic
                ? try KeyLoader.loadRSA(key, passphrase: passphrase, for: "keytool fetch")
                : .privateKey(try KeyLoader.loadPrivateRSA(key, passphrase: passphrase, for: "keytool fetch"))
        } else {
            rsaKey = nil
        }
        do {
            return try scheme.makeDecryptor(key: rsaKey, base64: base64)
        } catch {
            throw CommandError("\(key ?? "key"): \(error)")
        }
    }

    /// The transport settings from the timeout options.
    var transportConfiguration: AsyncHTTPClientTransport.Configuration {
        AsyncHTTPClientTransport.Configuration(connectTimeout: .milliseconds(Int(connectTimeout * 1000)),
                                               idleReadTimeout: .milliseconds(Int(idleTimeout * 1000)),
                                               maximumConnectionsPerHost: max(16, parallel))
    }

    /// `Name: value` → the pair, or `nil` when malformed.
    static func parseHeader(_ text: String) -> (name: String, value: String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = HTTPFieldText.trimmed(text[..<colon])
        let value = HTTPFieldText.trimmed(text[text.index(after: colon)...])
        guard !name.isEmpty, !name.contains(" "), !value.contains("\n"), !value.contains("\r") else { return nil }
        return (name, value)
    }

    /// Runs `body` with a downloader over AsyncHTTPClient (and the download cache in
    /// `cacheDirectory`, when given), waiting for it from this synchronous command; the transport
    /// and the cache are shut down afterwards.
    static func withDownloader<T: Sendable>(
        transport transportConfiguration: AsyncHTTPClientTransport.Configuration, cacheDirectory: String?,
        configuration: @escaping @Sendable (DownloadCache?) -> Downloader.Configuration,
        _ body: @escaping @Sendable (Downloader) async -> Result<T, DownloadError>
    ) -> Result<T, DownloadError> {
        runBlocking {
            let transport = AsyncHTTPClientTransport(configuration: transportConfiguration)
            var downloadCache: DownloadCache?
            if let cacheDirectory {
                do throws(DownloadError) {
                    downloadCache = try DownloadCache(directory: cacheDirectory)
                } catch {
                    try? await transport.shutdown()
                    return .failure(error)
                }
            }
            defer { downloadCache?.close() }
            let result = await body(Downloader(transport: transport, configuration: configuration(downloadCache)))
            try? await transport.shutdown()
            return result
        }
    }

    /// Runs async work from this synchronous command and waits for it (the work runs on the
    /// global executor, so blocking this thread cannot deadlock it).
    static func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            box.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return box.withLock { $0! }
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
