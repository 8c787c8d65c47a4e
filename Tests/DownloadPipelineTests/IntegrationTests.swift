import CofferTestSupport
import DownloadPipeline
import Foundation
import AsymmetricKeys
import Synchronization
import Testing
import KeyCodec

/// Payloads made by the real openssl, keys from the repository's fixtures.
enum OpenSSLPayloads {
    static let openssl = "/usr/bin/openssl"
    static func fixture(_ name: String) -> String { KeyFact.directory.appendingPathComponent(name).path }

    static let privateKeyPath = fixture("rsa2048.pkcs1.pem")
    static let publicKeyPath = fixture("rsa2048.spki.pem")
    static let certificatePath = fixture("rsa2048.cert.pem")
    static let otherKeyPath = fixture("rsa2048-e3.pkcs1.pem")

    static func privateKey(_ path: String = privateKeyPath) throws -> RSAPrivateKey {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return try #require(try KeyDecoder.decode(bytes, source: path, passphrase: nil).key.privateKey?.rsa)
    }

    static func plaintext(_ count: Int, seed: Int = 1) -> [UInt8] {
        var state = UInt32(truncatingIfNeeded: seed &* 2654435761)
        // Filled in place: a closure per byte costs seconds of a cooperative thread in a debug
        // build for the tens of megabytes some tests send, and starves the test servers.
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count {
                state = state &* 1664525 &+ 1013904223
                buffer[index] = UInt8(truncatingIfNeeded: state >> 24)
            }
            initialized = count
        }
    }

    /// Runs openssl on `stdin` and returns its output; fails on a non-zero exit. Waits without
    /// blocking a thread of the cooperative pool (other suites run meanwhile).
    static func run(_ arguments: [String], stdin: [UInt8]) async throws -> [UInt8] {
        let scratch = try TestScratch.directory("download")
        let input = scratch.appendingPathComponent("in").path
        let output = scratch.appendingPathComponent("out").path
        try Data(stdin).write(to: URL(fileURLWithPath: input))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = arguments + ["-in", input, "-out", output]
        process.standardError = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        guard status == 0 else { throw TestServerError("openssl \(arguments.first ?? "") failed") }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// `openssl cms -encrypt` to the fixture certificate, DER.
    static func cms(_ plaintext: [UInt8], cipher: String = "-aes-256-gcm", oaep: Bool = false) async throws -> [UInt8] {
        var arguments = ["cms", "-encrypt", "-binary", cipher, "-outform", "DER", "-recip", certificatePath]
        if oaep { arguments += ["-keyopt", "rsa_padding_mode:oaep"] }
        return try await run(arguments, stdin: plaintext)
    }

    /// `openssl pkeyutl -encrypt` (OAEP-SHA256) per 190-byte block.
    static func rsaBlocks(_ plaintext: [UInt8]) async throws -> [UInt8] {
        var out: [UInt8] = []
        for start in stride(from: 0, to: plaintext.count, by: 190) {
            out += try await run(["pkeyutl", "-encrypt", "-pubin", "-inkey", publicKeyPath, "-pkeyopt", "rsa_padding_mode:oaep",
                            "-pkeyopt", "rsa_oaep_md:sha256", "-pkeyopt", "rsa_mgf1_md:sha256"],
                           stdin: Array(plaintext[start..<min(start + 190, plaintext.count)]))
        }
        return out
    }
}

/// A started test server with a downloader over the real transport (``NetworkTransport``).
struct IntegrationEnvironment {
    let server: TestServer
    let transport: NetworkTransport
    let downloader: Downloader

    @discardableResult
    static func with<T>(configuration: Downloader.Configuration = .init(totalTimeout: LoopbackTimeouts.total),
                        _ body: (IntegrationEnvironment) async throws -> T) async throws -> T {
        let server = try await TestServer.start()
        // The idle-read timeout is not what these tests check (IntegrationFailureTests does): it is
        // as long as the total, so a machine loaded by the rest of the suite (a 5 s one fired
        // there, with the test passing in 2.4 s alone) does not fail them.
        let transport = NetworkTransport(configuration: .init(connectTimeout: LoopbackTimeouts.connect, idleReadTimeout: LoopbackTimeouts.idleRead))
        let environment = IntegrationEnvironment(server: server, transport: transport,
                                                 downloader: Downloader(transport: transport, configuration: configuration))
        do {
            let result = try await body(environment)
            try await transport.shutdown()
            await server.stop()
            return result
        } catch {
            try? await transport.shutdown()
            await server.stop()
            throw error
        }
    }
}

@Suite("Integration: the pipeline against a real HTTP server on 127.0.0.1", .serialized, .timeLimit(.minutes(2)))
struct IntegrationTests {
    @Test("openssl cms -encrypt payloads decrypt as they stream", arguments: [("-aes-256-gcm", false), ("-aes-128-cbc", true), ("-aes-256-cbc", false)])
    func cms(cipher: String, oaep: Bool) async throws {
        let plain = OpenSSLPayloads.plaintext(300_000)
        let payload = try await OpenSSLPayloads.cms(plain, cipher: cipher, oaep: oaep)
        let key = try OpenSSLPayloads.privateKey()
        try await IntegrationEnvironment.with { env in
            env.server.add("payload.cms", .init(bytes: payload, chunkSize: 16 * 1024))
            let result = try await env.downloader.result(for: DownloadRequest(url: env.server.url("/files/payload.cms"), decryptor: CMSDecryptor(key: key)))
            #expect(result.data == plain)
            #expect(result.bytesReceived == payload.count)
            #expect(result.response.status == 200)
        }
    }

    @Test("openssl pkeyutl per-block OAEP payload decrypts with the chunked RSA decryptor, also after a redirect")
    func rsaBlocks() async throws {
        let plain = OpenSSLPayloads.plaintext(1000, seed: 2)
        let payload = try await OpenSSLPayloads.rsaBlocks(plain)
        let key = try OpenSSLPayloads.privateKey()
        try await IntegrationEnvironment.with { env in
            env.server.add("blocks.bin", .init(bytes: payload))
            let direct = try await env.downloader.result(for: DownloadRequest(url: env.server.url("/files/blocks.bin"), decryptor: RSAChunkedDecryptor(key: key)))
            #expect(direct.data == plain)
            let redirected = try await env.downloader.result(for: DownloadRequest(url: env.server.url("/redirect/blocks.bin"), decryptor: RSAChunkedDecryptor(key: key)))
            #expect(redirected.data == plain)
            #expect(redirected.response.url.path == "/files/blocks.bin")
            #expect(env.server.hits("redirect/blocks.bin") == 1)
        }
    }

    @Test("404 and 500 are bad-status errors with their codes", arguments: [404, 500])
    func badStatus(code: Int) async throws {
        try await IntegrationEnvironment.with { env in
            let url = code == 404 ? env.server.url("/files/missing") : env.server.url("/status/500")
            await #expect { try await env.downloader.result(for: DownloadRequest(url: url)) } throws: {
                let error = $0 as? DownloadError
                return error?.code == .badStatus && error?.status == code
            }
        }
    }

    @Test("tampered ciphertext and a wrong key fail decryption, distinctly; the URL is not marked bad")
    func tamperedAndWrongKey() async throws {
        let plain = OpenSSLPayloads.plaintext(50_000, seed: 3)
        let payload = try await OpenSSLPayloads.cms(plain)
        var tampered = payload
        tampered[payload.count - 1000] ^= 0x01
        let key = try OpenSSLPayloads.privateKey()
        let wrongKey = try OpenSSLPayloads.privateKey(OpenSSLPayloads.otherKeyPath)
        try await IntegrationEnvironment.with { env in
            env.server.add("tampered", .init(bytes: tampered))
            env.server.add("good", .init(bytes: payload))
            await #expect { try await env.downloader.result(for: DownloadRequest(url: env.server.url("/files/tampered"), decryptor: CMSDecryptor(key: key))) } throws: {
                let error = $0 as? DownloadError
                return error?.code == .decryptionFailed && error?.decryptionError?.code == .tampered
            }
            await #expect { try await env.downloader.result(for: DownloadRequest(url: env.server.url("/files/good"), decryptor: CMSDecryptor(key: wrongKey))) } throws: {
                let error = $0 as? DownloadError
                return error?.code == .decryptionFailed && error?.decryptionError?.code != .tampered
            }
            let good = try await env.downloader.result(for: DownloadRequest(url: env.server.url("/files/good"), decryptor: CMSDecryptor(key: key)))
            #expect(good.data == plain)
            #expect(env.server.hits("good") == 2)
        }
    }

    @Test("100 concurrent requests for one URL reach the server once")
    func hundredCallers() async throws {
        let plain = OpenSSLPayloads.plaintext(20_000, seed: 4)
        let payload = try await OpenSSLPayloads.cms(plain)
        let key = try OpenSSLPayloads.privateKey()
        try await IntegrationEnvironment.with { env in
            env.server.add("popular", .init(bytes: payload, delay: .milliseconds(300)))
            let tasks = (0..<100).map { _ in
                env.downloader.download(DownloadRequest(url: env.server.url("/files/popular"), decryptor: CMSDecryptor(key: key)))
            }
            for task in tasks {
                let data = try await task.value.data
                #expect(data == plain)
            }
            #expect(env.server.hits("popular") == 1)
        }
    }

    @Test("the concurrency limit holds at the server")
    func concurrencyLimit() async throws {
        try await IntegrationEnvironment.with(configuration: .init(maximumConcurrentTransfers: 3, totalTimeout: LoopbackTimeouts.total)) { env in
            for index in 0..<12 {
                env.server.add("file\(index)", .init(bytes: OpenSSLPayloads.plaintext(1000, seed: index), delay: .milliseconds(100)))
            }
            let tasks = (0..<12).map { env.downloader.download(DownloadRequest(url: env.server.url("/files/file\($0)"))) }
            for (index, task) in tasks.enumerated() {
                let data = try await task.value.data
                #expect(data == OpenSSLPayloads.plaintext(1000, seed: index))
            }
            #expect(env.server.maxInFlight == 3)
        }
    }

    @Test("cache: a revalidated hit (304) and a hit without a request")
    func cache() async throws {
        let plain = OpenSSLPayloads.plaintext(10_000, seed: 5)
        let payload = try await OpenSSLPayloads.cms(plain)
        let key = try OpenSSLPayloads.privateKey()
        let scratch = try TestScratch.directory("download")
        let cache = try DownloadCache(directory: scratch.path)
        defer { cache.close() }
        try await IntegrationEnvironment.with(configuration: .init(totalTimeout: LoopbackTimeouts.total, cache: cache)) { env in
            env.server.add("cached", .init(bytes: payload, etag: "\"abc\"", lastModified: "Sat, 21 Nov 2026 10:00:00 GMT"))
            let request = DownloadRequest(url: env.server.url("/files/cached"), decryptor: CMSDecryptor(key: key),
                                          cachePolicy: .enabled(storeDecrypted: false, revalidate: true))
            let first = try await env.downloader.result(for: request)
            #expect(first.source == .network)
            let second = try await env.downloader.result(for: request)
            #expect(second.source == .revalidated)
            #expect(second.data == plain)
            #expect(second.bytesReceived == 0)
            #expect(env.server.lastHeaders("cached")["if-none-match"] == "\"abc\"")
            #expect(env.server.lastHeaders("cached")["if-modified-since"] == "Sat, 21 Nov 2026 10:00:00 GMT")
            #expect(env.server.hits("cached") == 2)
            var offline = request
            offline.cachePolicy = .enabled(storeDecrypted: false, revalidate: false)
            let third = try await env.downloader.result(for: offline)
            #expect(third.source == .cache)
            #expect(third.data == plain)
            #expect(env.server.hits("cached") == 2)
            // The resource changes: the revalidation gets 200 and the new content.
            let newPlain = OpenSSLPayloads.plaintext(10_000, seed: 6)
            env.server.add("cached", .init(bytes: try await OpenSSLPayloads.cms(newPlain), etag: "\"def\""))
            let fourth = try await env.downloader.result(for: request)
            #expect(fourth.source == .network)
            #expect(fourth.data == newPlain)
        }
    }

    @Test("cancelling one of two callers leaves the transfer running; cancelling both stops it")
    func cancellation() async throws {
        let plain = OpenSSLPayloads.plaintext(200_000, seed: 7)
        let watcher = StopWatcher()
        try await IntegrationEnvironment.with(configuration: .init(totalTimeout: LoopbackTimeouts.total, accessories: [watcher])) { (env: IntegrationEnvironment) async throws in
            env.server.add("slow", .init(bytes: plain, chunkSize: 10_000, chunkDelay: .milliseconds(50)))
            let url = env.server.url("/files/slow")
            var responses = env.downloader.eventStream().filter { $0.name == "response" }.makeAsyncIterator()
            let first = env.downloader.download(DownloadRequest(url: url))
            let second = env.downloader.download(DownloadRequest(url: url))
            // The response head arrived: the shared transfer is in flight.
            _ = await responses.next()
            #expect(env.server.hits("slow") == 1)
            first.cancel()
            await #expect { try await first.value } throws: { ($0 as? DownloadError)?.code == .cancelled }
            #expect(try await second.value.data == plain)
            #expect(env.server.hits("slow") == 1)

            let third = env.downloader.download(DownloadRequest(url: url))
            let fourth = env.downloader.download(DownloadRequest(url: url))
            _ = await responses.next()
            #expect(env.server.hits("slow") == 2)
            third.cancel()
            fourth.cancel()
            await #expect { try await fourth.value } throws: { ($0 as? DownloadError)?.code == .cancelled }
            await watcher.stops.wait(atLeast: 2)
            #expect(env.downloader.runningTransfers == 0)
            // The server stopped writing the second body (a second to send), and not because it
            // reached the end: the cancelled transfer cut it off.
            await env.server.waitForBodiesEnded(2)
            #expect(env.server.completed("slow") == 1)
        }
    }

    @Test("a file destination receives the decrypted stream")
    func fileDestination() async throws {
        let plain = OpenSSLPayloads.plaintext(500_000, seed: 8)
        let payload = try await OpenSSLPayloads.cms(plain)
        let key = try OpenSSLPayloads.privateKey()
        let scratch = try TestScratch.directory("download")
        try await IntegrationEnvironment.with { env in
            env.server.add("big", .init(bytes: payload))
            let output = scratch.appendingPathComponent("plain.bin").path
            let result = try await env.downloader.result(for: DownloadRequest(url: env.server.url("/files/big"), decryptor: CMSDecryptor(key: key),
                                                                             destination: .file(output)))
            #expect(result.resultLength == plain.count)
            #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: output))) == plain)
        }
    }
}
