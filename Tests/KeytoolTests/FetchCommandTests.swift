import CofferTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `keytool fetch` against an HTTP server on 127.0.0.1 started by the test, with payloads made by
/// the real openssl.
@Suite("keytool fetch", .serialized, .timeLimit(.minutes(1)))
struct FetchCommandTests {
    static let privateKey = CLIRunner.fixture("keys/rsa2048.pkcs1.pem")
    static let publicKey = CLIRunner.fixture("keys/rsa2048.spki.pem")
    static let certificate = CLIRunner.fixture("keys/rsa2048.cert.pem")
    static let otherKey = CLIRunner.fixture("keys/rsa2048-e3.pkcs1.pem")
    static let openssl = "/usr/bin/openssl"

    static func plaintext(_ count: Int, seed: UInt32 = 1) -> [UInt8] {
        var state = seed &* 2654435761
        return (0..<count).map { _ in
            state = state &* 1664525 &+ 1013904223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    static func openssl(_ arguments: [String], stdin: [UInt8]) throws -> [UInt8] {
        let result = try CLIRunner.run(arguments, tool: openssl, stdin: stdin)
        guard result.status == 0 else { throw Server.Failure("openssl \(arguments[0]) failed: \(result.stderr)") }
        return result.stdoutBytes
    }

    static func cms(_ plain: [UInt8]) throws -> [UInt8] {
        try openssl(["cms", "-encrypt", "-binary", "-aes-256-gcm", "-outform", "DER", "-recip", certificate], stdin: plain)
    }

    final class Scratch {
        let path: String
        init() throws {
            path = try TestScratch.directory("keytool-fetch").path
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        func file(_ name: String) -> String { path + "/" + name }
    }

    @Test("a CMS payload is fetched, decrypted (scheme auto) and written to stdout; no progress bar when piped")
    func cmsToStdout() throws {
        let plain = Self.plaintext(100_000)
        let payload = try Self.cms(plain)
        let server = try Server(files: ["/p.cms": .init(bytes: payload)])
        defer { server.stop() }
        let result = try CLIRunner.run(["fetch", server.url("/p.cms"), "--key", Self.privateKey])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutBytes == plain)
        #expect(result.stderr.isEmpty)
    }

    @Test("-o writes the result with mode 0600; --header reaches the server")
    func outputFileAndHeaders() throws {
        let plain = Self.plaintext(5000, seed: 2)
        let server = try Server(files: ["/p.cms": .init(bytes: try Self.cms(plain))])
        defer { server.stop() }
        let scratch = try Scratch()
        let output = scratch.file("out.bin")
        let result = try CLIRunner.run(["fetch", server.url("/p.cms"), "--key", Self.privateKey, "--scheme", "cms", "-o", output,
                                        "--header", "Authorization: Bearer abc", "--header", "X-Trace: 1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: output))) == plain)
        let attributes = try FileManager.default.attributesOfItem(atPath: output)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(server.lastRequest?.lowercased().contains("authorization: bearer abc") == true)
        #expect(server.lastRequest?.lowercased().contains("x-trace: 1") == true)
    }

    @Test("--scheme rsa-oaep-sha256 decrypts openssl pkeyutl blocks; --base64 strips a base64 wrapper")
    func rsaAndBase64() throws {
        let plain = Self.plaintext(700, seed: 3)
        var blocks: [UInt8] = []
        for start in stride(from: 0, to: plain.count, by: 190) {
            blocks += try Self.openssl(["pkeyutl", "-encrypt", "-pubin", "-inkey", Self.publicKey, "-pkeyopt", "rsa_padding_mode:oaep",
                                        "-pkeyopt", "rsa_oaep_md:sha256", "-pkeyopt", "rsa_mgf1_md:sha256"],
                                       stdin: Array(plain[start..<min(start + 190, plain.count)]))
        }
        let wrapped = try Self.openssl(["base64"], stdin: blocks)
        let server = try Server(files: ["/blocks": .init(bytes: blocks), "/blocks.b64": .init(bytes: wrapped)])
        defer { server.stop() }
        let direct = try CLIRunner.run(["fetch", server.url("/blocks"), "--key", Self.privateKey, "--scheme", "rsa-oaep-sha256"])
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(direct.stdoutBytes == plain)
        let base64 = try CLIRunner.run(["fetch", server.url("/blocks.b64"), "--key", Self.privateKey, "--scheme", "rsa-oaep-sha256", "--base64"])
        #expect(base64.status == 0, "\(base64.stderr)")
        #expect(base64.stdoutBytes == plain)
        let auto = try CLIRunner.run(["fetch", server.url("/blocks"), "--key", Self.privateKey])
        #expect(auto.status == 1)
        #expect(auto.stderr.contains("--scheme"))
        // A batch line says the same way out.
        let scratch = try Scratch()
        try "\(server.url("/blocks"))\n".write(toFile: scratch.file("list.txt"), atomically: true, encoding: .utf8)
        let batch = try CLIRunner.run(["fetch", "--batch", scratch.file("list.txt"), "--output-dir", scratch.file("out"), "--key", Self.privateKey])
        #expect(batch.status == 1)
        #expect(batch.stdout.hasPrefix("failed ") && batch.stdout.contains("give --scheme (auto, cms"), "\(batch.stdout)")
    }

    @Test("--scheme rsa-public recovers private-key-encrypted blocks with the public key; --scheme none needs no key")
    func publicRecoveryAndNone() throws {
        let plain = Self.plaintext(600, seed: 7)
        var blocks: [UInt8] = []
        for start in stride(from: 0, to: plain.count, by: 245) {
            blocks += try Self.openssl(["rsautl", "-sign", "-inkey", Self.privateKey], stdin: Array(plain[start..<min(start + 245, plain.count)]))
        }
        let server = try Server(files: ["/signed": .init(bytes: blocks)])
        defer { server.stop() }
        let recovered = try CLIRunner.run(["fetch", server.url("/signed"), "--key", Self.publicKey, "--scheme", "rsa-public"])
        #expect(recovered.status == 0, "\(recovered.stderr)")
        #expect(recovered.stdoutBytes == plain)
        let raw = try CLIRunner.run(["fetch", server.url("/signed"), "--scheme", "none"])
        #expect(raw.status == 0, "\(raw.stderr)")
        #expect(raw.stdoutBytes == blocks)
    }

    @Test("each failure exits 1 with its own message")
    func failures() throws {
        let plain = Self.plaintext(20_000, seed: 4)
        let payload = try Self.cms(plain)
        var tampered = payload
        tampered[payload.count - 500] ^= 0x20
        let server = try Server(files: ["/good": .init(bytes: payload), "/tampered": .init(bytes: tampered),
                                        "/short": .init(bytes: payload, cutAfter: 1000), "/stall": .init(bytes: payload, stallAfter: 100)])
        defer { server.stop() }
        let cases: [(arguments: [String], message: String)] = [
            (["fetch", server.url("/missing"), "--key", Self.privateKey], "HTTP 404"),
            (["fetch", server.url("/tampered"), "--key", Self.privateKey], "decryption failed"),
            (["fetch", server.url("/good"), "--key", Self.otherKey], "decryption failed"),
            (["fetch", server.url("/short"), "--key", Self.privateKey], "body ended after 1000 of \(payload.count) bytes"),
            (["fetch", server.url("/stall"), "--key", Self.privateKey, "--idle-timeout", "0.3"], "timed out"),
            (["fetch", "http://127.0.0.1:1/x", "--key", Self.privateKey], "127.0.0.1:1"),
        ]
        // With -o nothing is left behind (no OUT, no temporary file). Standard output streams, so a
        // failure part-way may leave bytes there (what arrived before a cut, or plaintext whose
        // GCM tag at the end then failed), never the right result; the exit status says so.
        let scratch = try Scratch()
        for (arguments, message) in cases {
            let start = Date()
            let result = try CLIRunner.run(arguments + ["-o", scratch.file("out.bin")])
            #expect(result.status == 1, "\(arguments[1])")
            #expect(result.stderr.hasPrefix("keytool: error: "), "\(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(result.stdoutBytes.isEmpty)
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
            let piped = try CLIRunner.run(arguments)
            #expect(piped.status == 1, "\(arguments[1])")
            #expect(piped.stderr.contains(message), "\(piped.stderr)")
            #expect(piped.stdoutBytes != plain)
            #expect(Date().timeIntervalSince(start) < 20)
        }
    }

    @Test("usage errors exit 64")
    func usage() throws {
        for arguments in [["fetch", "http://127.0.0.1:1/x", "--key", Self.privateKey, "--scheme", "rot13"],
                          ["fetch", "http://127.0.0.1:1/x", "--key", Self.privateKey, "--resume"],
                          ["fetch", "http://127.0.0.1:1/x"],
                          ["fetch", "http://127.0.0.1:1/x", "--key", Self.privateKey, "--header", "no colon"]] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status == 64, "\(arguments)")
        }
    }

    @Test("--resume continues a cut download from OUT.part")
    func resume() throws {
        let plain = Self.plaintext(80_000, seed: 5)
        let payload = try Self.cms(plain)
        let server = try Server(files: ["/p": .init(bytes: payload, etag: "\"r1\"", cutAfter: 30_000, cutOnce: true)])
        defer { server.stop() }
        let scratch = try Scratch()
        let output = scratch.file("out.bin")
        let first = try CLIRunner.run(["fetch", server.url("/p"), "--key", Self.privateKey, "-o", output, "--resume", "--retry", "0"])
        #expect(first.status == 1)
        #expect(first.stderr.contains("body ended"))
        #expect(FileManager.default.fileExists(atPath: output + ".part"))
        let second = try CLIRunner.run(["fetch", server.url("/p"), "--key", Self.privateKey, "-o", output, "--resume"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: output))) == plain)
        #expect(server.lastRequest?.lowercased().contains("range: bytes=30000-") == true)
        #expect(!FileManager.default.fileExists(atPath: output + ".part"))
    }

    @Test("--retry: 503 twice then 200 succeeds by default (Retry-After honoured); --retry 0 gives up at once")
    func retry() throws {
        let plain = Self.plaintext(4000, seed: 8)
        let payload = try Self.cms(plain)
        let server = try Server(files: ["/busy": .init(bytes: payload, unavailableFirst: 2, retryAfter: "0"),
                                        "/down": .init(bytes: payload, unavailableFirst: 100)])
        defer { server.stop() }
        let retried = try CLIRunner.run(["fetch", server.url("/busy"), "--key", Self.privateKey])
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(retried.stdoutBytes == plain)
        #expect(server.requests.filter { $0.hasPrefix("GET /busy ") }.count == 3)
        let once = try CLIRunner.run(["fetch", server.url("/down"), "--key", Self.privateKey, "--retry", "0"])
        #expect(once.status == 1)
        #expect(once.stderr.contains("HTTP 503"), "\(once.stderr)")
        #expect(server.requests.filter { $0.hasPrefix("GET /down ") }.count == 1)
    }

    @Test("a cut download is resumed by the retry within one run (Range request)")
    func retryResumes() throws {
        let plain = Self.plaintext(60_000, seed: 9)
        let payload = try Self.cms(plain)
        let server = try Server(files: ["/p": .init(bytes: payload, etag: "\"q1\"", cutAfter: 20_000, cutOnce: true)])
        defer { server.stop() }
        let scratch = try Scratch()
        let output = scratch.file("out.bin")
        let result = try CLIRunner.run(["fetch", server.url("/p"), "--key", Self.privateKey, "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: output))) == plain)
        #expect(server.lastRequest?.lowercased().contains("range: bytes=20000-") == true)
    }

    @Test("--sha256: a mismatch exits 1 and writes nothing; the right digest passes")
    func sha256() throws {
        let plain = Self.plaintext(9000, seed: 10)
        let payload = try Self.cms(plain)
        let server = try Server(files: ["/p": .init(bytes: payload)])
        defer { server.stop() }
        let scratch = try Scratch()
        let output = scratch.file("out.bin")
        let right = try Self.openssl(["dgst", "-sha256", "-r"], stdin: payload)
        let hex = String(decoding: right.prefix(64), as: UTF8.self)
        let wrong = String(hex.reversed())
        let failed = try CLIRunner.run(["fetch", server.url("/p"), "--key", Self.privateKey, "-o", output, "--sha256", wrong])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("integrity check failed"), "\(failed.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
        let passed = try CLIRunner.run(["fetch", server.url("/p"), "--key", Self.privateKey, "-o", output, "--sha256", hex.uppercased()])
        #expect(passed.status == 0, "\(passed.stderr)")
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: output))) == plain)
    }

    @Test("--batch: one summary line per URL in file order; --keep-going runs all, --fail-fast stops; exit 0 only when all succeed")
    func batch() throws {
        let plains = (0..<3).map { Self.plaintext(3000 + $0, seed: UInt32(20 + $0)) }
        let payloads = try plains.map { try Self.cms($0) }
        let server = try Server(files: ["/a.cms": .init(bytes: payloads[0]), "/b.cms": .init(bytes: payloads[1]),
                                        "/c.cms": .init(bytes: payloads[2])])
        defer { server.stop() }
        let scratch = try Scratch()
        let digest = String(decoding: try Self.openssl(["dgst", "-sha256", "-r"], stdin: payloads[0]).prefix(64), as: UTF8.self)
        let good = "# payloads\n\(server.url("/a.cms")) sha256=\(digest)\n\n\(server.url("/b.cms")) out=second.bin\n\(server.url("/c.cms"))\n"
        try good.write(toFile: scratch.file("good.txt"), atomically: true, encoding: .utf8)
        let all = try CLIRunner.run(["fetch", "--batch", scratch.file("good.txt"), "--output-dir", scratch.file("out"),
                                     "--key", Self.privateKey, "--parallel", "2"])
        #expect(all.status == 0, "\(all.stderr)")
        let lines = all.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasPrefix("ok ") })
        #expect(lines[1].contains("second.bin"))
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch.file("out/a.cms")))) == plains[0])
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch.file("out/second.bin")))) == plains[1])
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch.file("out/c.cms")))) == plains[2])

        let mixed = "\(server.url("/a.cms"))\n\(server.url("/missing.cms"))\n\(server.url("/c.cms")) sha256=\(digest)\n"
        try mixed.write(toFile: scratch.file("mixed.txt"), atomically: true, encoding: .utf8)
        let keepGoing = try CLIRunner.run(["fetch", "--batch", scratch.file("mixed.txt"), "--output-dir", scratch.file("kept"),
                                           "--key", Self.privateKey, "--keep-going"])
        #expect(keepGoing.status == 1)
        let kept = keepGoing.stdout.split(separator: "\n")
        #expect(kept.count == 3)
        #expect(kept[0].hasPrefix("ok "))
        #expect(kept[1].hasPrefix("failed ") && kept[1].contains("HTTP 404"))
        #expect(kept[2].hasPrefix("failed ") && kept[2].contains("integrity check failed"))
        #expect(keepGoing.stderr.contains("2 of 3 downloads failed"), "\(keepGoing.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("kept")) == ["a.cms"])

        let failFast = try CLIRunner.run(["fetch", "--batch", scratch.file("mixed.txt"), "--output-dir", scratch.file("fast"),
                                          "--key", Self.privateKey, "--fail-fast", "--parallel", "1", "--retry", "0"])
        #expect(failFast.status == 1)
        let fast = failFast.stdout.split(separator: "\n")
        #expect(fast.count == 3)
        #expect(fast[0].hasPrefix("ok "))
        #expect(fast[1].contains("HTTP 404"))
        #expect(fast[2].hasPrefix("failed ") && fast[2].contains("line 2 failed first"), "\(fast[2])")
    }

    @Test("--batch on a terminal draws a progress line per active transfer (run under script(1))",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func batchProgressOnTerminal() throws {
        let server = try Server(files: ["/one.bin": .init(bytes: Self.plaintext(200_000, seed: 30)),
                                        "/two.bin": .init(bytes: Self.plaintext(150_000, seed: 31))])
        defer { server.stop() }
        let scratch = try Scratch()
        try "\(server.url("/one.bin"))\n\(server.url("/two.bin"))\n".write(toFile: scratch.file("list.txt"), atomically: true, encoding: .utf8)
        let keytool = CLIRunner.productsDirectory.appendingPathComponent("keytool").path
        let command = [keytool, "fetch", "--batch", scratch.file("list.txt"), "--output-dir", scratch.file("out"), "--scheme", "none"]
            .map { "'" + $0 + "'" }.joined(separator: " ")
        // script(1) gives the command a terminal and copies everything it writes to our stdout.
        let result = try CLIRunner.run(["-qec", command, "/dev/null"], tool: "/usr/bin/script")
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("\u{1B}[2Kone.bin") || result.stdout.contains("\u{1B}[2Ktwo.bin"), "\(result.stdout)")
        #expect(result.stdout.contains("ok \(server.url("/one.bin"))"))
        #expect(result.stdout.contains("ok \(server.url("/two.bin"))"))
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch.file("out/two.bin")))) == Self.plaintext(150_000, seed: 31))
    }

    @Test("--batch input errors: a bad line names the file and line (exit 1); misused options exit 64")
    func batchErrors() throws {
        let scratch = try Scratch()
        try "http://127.0.0.1:1/a\nnot a url\n".write(toFile: scratch.file("bad.txt"), atomically: true, encoding: .utf8)
        try "http://127.0.0.1:1/a out=../x\n".write(toFile: scratch.file("escape.txt"), atomically: true, encoding: .utf8)
        try "http://127.0.0.1:1/a sha256=abc\n".write(toFile: scratch.file("digest.txt"), atomically: true, encoding: .utf8)
        try "http://127.0.0.1:1/a\nhttp://127.0.0.1:1/b out=a\n".write(toFile: scratch.file("twice.txt"), atomically: true, encoding: .utf8)
        for (file, message) in [("bad.txt", "bad.txt:2:"), ("escape.txt", "not a plain file name"), ("digest.txt", "64 hex digits"),
                                ("twice.txt", "already used on line 1")] {
            let result = try CLIRunner.run(["fetch", "--batch", scratch.file(file), "--output-dir", scratch.file("out"), "--scheme", "none"])
            #expect(result.status == 1, "\(file)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
        for arguments in [["fetch", "--batch", scratch.file("bad.txt"), "--scheme", "none"],
                          ["fetch", "http://127.0.0.1:1/x", "--batch", scratch.file("bad.txt"), "--output-dir", scratch.path, "--scheme", "none"],
                          ["fetch", "http://127.0.0.1:1/x", "--scheme", "none", "--sha256", "xyz"],
                          ["fetch", "http://127.0.0.1:1/x", "--scheme", "none", "--retry", "-1"],
                          ["fetch", "--batch", scratch.file("bad.txt"), "--output-dir", scratch.path, "--scheme", "none", "--parallel", "0"]] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status == 64, "\(arguments)")
        }
    }

    @Test("--cache revalidates with If-None-Match and serves the 304 from the cache")
    func cache() throws {
        let plain = Self.plaintext(10_000, seed: 6)
        let server = try Server(files: ["/c": .init(bytes: try Self.cms(plain), etag: "\"c1\"")])
        defer { server.stop() }
        let scratch = try Scratch()
        let cacheDirectory = scratch.file("cache")
        for _ in 0..<2 {
            let result = try CLIRunner.run(["fetch", server.url("/c"), "--key", Self.privateKey, "--cache", cacheDirectory])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdoutBytes == plain)
        }
        #expect(server.lastRequest?.lowercased().contains("if-none-match: \"c1\"") == true)
        #expect(server.notModifiedCount == 1)
    }
}

extension FetchCommandTests {
    /// A small HTTP/1.1 file server on a POSIX socket (127.0.0.1, ephemeral port): ETag and 304,
    /// Range with If-Range (206), 404, and misbehaviour on demand (cut the body, stall).
    final class Server: Sendable {
        struct File: Sendable {
            var bytes: [UInt8]
            var etag: String? = nil
            /// Send only this many body bytes, then close.
            var cutAfter: Int? = nil
            /// Cut only the first full request.
            var cutOnce = false
            /// Send this many body bytes, then hold the connection.
            var stallAfter: Int? = nil
            /// Answer the first requests with 503 (and this `Retry-After`, when set).
            var unavailableFirst = 0
            var retryAfter: String? = nil
        }

        struct Failure: Error, CustomStringConvertible {
            let description: String
            init(_ description: String) { self.description = description }
        }

        private let files: [String: File]
        private let log = Mutex((requests: [String](), notModified: 0, cuts: 0, unavailable: [String: Int]()))
        private let listener: LoopbackListener

        init(files: [String: File]) throws {
            self.files = files
            listener = try LoopbackListener()
            listener.start { [self] listener, fd, _ in serve(fd, listener: listener) }
        }

        var port: Int { listener.port }
        func url(_ path: String) -> String { listener.url(path) }
        func stop() { listener.stop() }
        var lastRequest: String? { log.withLock { $0.requests.last } }
        var requests: [String] { log.withLock { $0.requests } }
        var notModifiedCount: Int { log.withLock { $0.notModified } }

        private func serve(_ fd: Int32, listener: LoopbackListener) {
            guard let request = LoopbackListener.readRequestHead(fd) else { return }
            log.withLock { $0.requests.append(request) }
            let lines = request.components(separatedBy: "\r\n")
            let path = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            guard let file = files[path] else {
                write(fd, Self.head("404 Not Found", length: 10, []) + Array("not found\n".utf8))
                return
            }
            let refuse = log.withLock { log -> Bool in
                guard log.unavailable[path, default: 0] < file.unavailableFirst else { return false }
                log.unavailable[path, default: 0] += 1
                return true
            }
            if refuse {
                write(fd, Self.head("503 Service Unavailable", length: 0, file.retryAfter.map { ["Retry-After: \($0)"] } ?? []))
                return
            }
            let validators = file.etag.map { ["ETag: \($0)"] } ?? []
            if let etag = file.etag, headers["if-none-match"] == etag {
                log.withLock { $0.notModified += 1 }
                write(fd, Self.head("304 Not Modified", length: nil, validators))
                return
            }
            var start = 0
            var status = "200 OK"
            var extra = validators
            if let range = headers["range"], range.hasPrefix("bytes="), range.hasSuffix("-"),
               let first = Int(range.dropFirst(6).dropLast()), first < file.bytes.count,
               headers["if-range"] == nil || headers["if-range"] == file.etag {
                start = first
                status = "206 Partial Content"
                extra.append("Content-Range: bytes \(first)-\(file.bytes.count - 1)/\(file.bytes.count)")
            }
            let body = Array(file.bytes[start...])
            write(fd, Self.head(status, length: body.count, extra))
            if let stall = file.stallAfter {
                write(fd, Array(body.prefix(stall)))
                while !listener.isStopping { Thread.sleep(forTimeInterval: 0.02) }
                return
            }
            if let cut = file.cutAfter, start == 0 {
                let shouldCut = log.withLock { log -> Bool in
                    guard !file.cutOnce || log.cuts == 0 else { return false }
                    log.cuts += 1
                    return true
                }
                if shouldCut {
                    write(fd, Array(body.prefix(cut)))
                    LoopbackListener.closeLingering(fd)
                    return
                }
            }
            write(fd, body)
        }

        private func write(_ fd: Int32, _ bytes: [UInt8]) {
            LoopbackListener.send(fd, bytes)
        }

        private static func head(_ status: String, length: Int?, _ headers: [String]) -> [UInt8] {
            LoopbackListener.responseHead(status: status, length: length, headers: headers)
        }
    }
}
