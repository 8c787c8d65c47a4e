import CofferTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `keytool fetch`'s transport options against `openssl s_server -WWW` (the real tool) with the
/// private CA and identities of Fixtures/tls: --cacert, --client-identity, --client-key with
/// --client-cert, and the options' own checks.
@Suite("keytool fetch: --cacert, client identities, proxies options", .serialized, .timeLimit(.minutes(1)))
struct FetchTransportCommandTests {
    static func tls(_ name: String) -> String { CLIRunner.fixture("tls/" + name) }

    /// `openssl s_server -WWW` serving `directory` over TLS on a free port, optionally requiring
    /// a client certificate from the client CA.
    struct ServerFailure: Error, CustomStringConvertible { let description: String }

    final class OpenSSLServer {
        let port: Int
        private let process: Process

        /// Starts the server on a free port (another one if that port was taken meanwhile).
        static func start(directory: String, requireClientCertificate: Bool) throws -> OpenSSLServer {
            try LoopbackPort.retrying { port in try OpenSSLServer(port: port, directory: directory, requireClientCertificate: requireClientCertificate) }
        }

        private init(port: Int, directory: String, requireClientCertificate: Bool) throws {
            self.port = port
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            var arguments = ["s_server", "-quiet", "-WWW", "-accept", "127.0.0.1:\(port)",
                             "-cert", FetchTransportCommandTests.tls("server.pem"), "-key", FetchTransportCommandTests.tls("server.key.pem"),
                             "-cert_chain", FetchTransportCommandTests.tls("intermediate-ca.pem")]
            if requireClientCertificate { arguments += ["-Verify", "2", "-CAfile", FetchTransportCommandTests.tls("client-ca.pem")] }
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Readiness: poll until the port accepts a connection.
            for _ in 0..<500 {
                guard process.isRunning else { throw ServerFailure(description: "openssl s_server exited with \(process.terminationStatus)") }
                if LoopbackPort.accepts(port) { return }
                usleep(20_000)
            }
            stop()
            throw ServerFailure(description: "openssl s_server did not listen on 127.0.0.1:\(port)")
        }

        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            for _ in 0..<500 where process.isRunning { usleep(10_000) }
        }

        func url(_ path: String) -> String { "https://127.0.0.1:\(port)/\(path)" }
    }

    static func withServer(requireClientCertificate: Bool, _ body: (OpenSSLServer, [UInt8], String) throws -> Void) throws {
        let directory = try TestScratch.directory("fetch-tls")
        defer { try? FileManager.default.removeItem(at: directory) }
        let payload = Array((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        try Data(payload).write(to: directory.appendingPathComponent("payload.bin"))
        let server = try OpenSSLServer.start(directory: directory.path, requireClientCertificate: requireClientCertificate)
        defer { server.stop() }
        try body(server, payload, directory.path)
    }

    /// Arguments common to every fetch: no decryption, one attempt, no proxy from the environment.
    static let base = ["--scheme", "none", "--retry", "0", "--no-proxy", "*"]

    @Test("--cacert (file or directory) trusts the private CA; without it the failure names the cause")
    func cacert() throws {
        try Self.withServer(requireClientCertificate: false) { server, payload, directory in
            for trust in [Self.tls("root-ca.pem"), Self.tls("ca-dir")] {
                let out = directory + "/out-\(trust.hasSuffix("dir") ? "dir" : "file")"
                let result = try CLIRunner.run(["fetch", server.url("payload.bin"), "--cacert", trust, "-o", out] + Self.base)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(Array(try Data(contentsOf: URL(fileURLWithPath: out))) == payload)
            }
            let refused = try CLIRunner.run(["fetch", server.url("payload.bin")] + Self.base)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("trusted root"), "\(refused.stderr)")
        }
    }

    @Test("--client-identity (PKCS#12, passphrase from a file) and --client-key/--client-cert pass mutual TLS; none fails clearly")
    func clientIdentity() throws {
        try Self.withServer(requireClientCertificate: true) { server, payload, _ in
            let trust = ["--cacert", Self.tls("root-ca.pem")]
            let p12 = try CLIRunner.run(["fetch", server.url("payload.bin"), "--client-identity", Self.tls("client-identity.p12"),
                                         "--passphrase-file", Self.tls("passphrase.txt")] + trust + Self.base)
            #expect(p12.status == 0, "\(p12.stderr)")
            #expect(p12.stdoutBytes == payload)
            let apart = try CLIRunner.run(["fetch", server.url("payload.bin"), "--client-key", Self.tls("client.key-encrypted.pem"),
                                           "--client-cert", Self.tls("client-chain.pem")] + trust + Self.base,
                                          environment: ["COFFER_TEST_PASS": "coffer-test-pass"])
            #expect(apart.status == 1)
            #expect(apart.stderr.contains("client.key-encrypted.pem"), "\(apart.stderr)")
            let withEnv = try CLIRunner.run(["fetch", server.url("payload.bin"), "--client-key", Self.tls("client.key-encrypted.pem"),
                                             "--client-cert", Self.tls("client-chain.pem"), "--passphrase-env", "COFFER_TEST_PASS"] + trust + Self.base,
                                            environment: ["COFFER_TEST_PASS": "coffer-test-pass"])
            #expect(withEnv.status == 0, "\(withEnv.stderr)")
            #expect(withEnv.stdoutBytes == payload)
            #expect(!withEnv.stderr.contains("coffer-test-pass"))
            let without = try CLIRunner.run(["fetch", server.url("payload.bin")] + trust + Self.base)
            #expect(without.status == 1)
            #expect(without.stderr.contains("client certificate"), "\(without.stderr)")
        }
    }

    /// A pin of Fixtures/tls/facts.json (computed by openssl).
    static func pin(_ name: String) throws -> String {
        let facts = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: tls("facts.json")))) as? [String: Any]
        return try #require((facts?["pins"] as? [String: String])?[name])
    }

    @Test("--pinnedpubkey: the server's or its CA's pin (or a key file) passes; a wrong pin exits 1 naming the pins")
    func pinnedPublicKey() throws {
        try Self.withServer(requireClientCertificate: false) { server, payload, directory in
            let trust = ["--cacert", Self.tls("root-ca.pem")]
            // The server's public key as openssl writes it (a PEM SubjectPublicKeyInfo), as curl takes it.
            let publicKey = try ToolProcess.run(tool: "openssl", ["x509", "-in", Self.tls("server.pem"), "-pubkey", "-noout"])
            #expect(publicKey.status == 0, "\(publicKey.stderr)")
            let publicKeyFile = directory + "/server.pub.pem"
            try Data(publicKey.stdout).write(to: URL(fileURLWithPath: publicKeyFile))
            for pins in [publicKeyFile, "\(try Self.pin("unrelated-ca"));\(try Self.pin("server"))", try Self.pin("root-ca"), Self.tls("intermediate-ca.pem")] {
                let result = try CLIRunner.run(["fetch", server.url("payload.bin"), "--pinnedpubkey", pins] + trust + Self.base)
                #expect(result.status == 0, "\(pins): \(result.stderr)")
                #expect(result.stdoutBytes == payload)
            }
            let wrong = try CLIRunner.run(["fetch", server.url("payload.bin"), "--pinnedpubkey", try Self.pin("client")] + trust + Self.base)
            #expect(wrong.status == 1)
            #expect(wrong.stdoutBytes.isEmpty)
            #expect(wrong.stderr.contains("matches none of the pinned public keys"), "\(wrong.stderr)")
            let expected = try Self.pin("client"), seen = try Self.pin("server")
            #expect(wrong.stderr.contains(expected) && wrong.stderr.contains(seen), "\(wrong.stderr)")
        }
    }

    @Test("--pinnedpubkey killed with SIGKILL mid-connection leaves nothing behind: no child process, no file in TMPDIR")
    func pinnedKilled() throws {
        let temporary = try TestScratch.directory("fetch-kill-tmp")
        defer { try? FileManager.default.removeItem(at: temporary) }
        // A server that accepts and never answers: the fetch is mid-connection when it is killed.
        let listener = try LoopbackListener()
        listener.start { listener, _, _ in
            while !listener.isStopping { usleep(10_000) }
        }
        defer { listener.stop() }
        let process = Process()
        process.executableURL = CLIRunner.productsDirectory.appendingPathComponent("keytool")
        process.arguments = ["fetch", "https://127.0.0.1:\(listener.port)/payload.bin", "--pinnedpubkey", try Self.pin("server"),
                             "--cacert", Self.tls("root-ca.pem"), "-o", temporary.path + "/out.bin"] + Self.base
        process.environment = ["TMPDIR": temporary.path, "PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        for _ in 0..<500 where listener.connections == 0 { usleep(10_000) }
        #expect(listener.connections == 1, "the fetch connected")
        // The pinned transfer runs in the process itself: it has no child (a forwarder or helper).
        let children = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init).filter { candidate in
            guard let stat = try? String(contentsOfFile: "/proc/\(candidate)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            // Fields after the command name: state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == pid
        }
        #expect(children.isEmpty, "\(children)")
        kill(pid, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        // Nothing written by the pinned transfer: no socket, no directory, no partial output.
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(left.isEmpty, "\(left)")
    }

    /// A fetch stopped (SIGSTOP, as Ctrl-Z stops it) while the answer arrives, and continued after
    /// its idle timeout: on resumption the timer and the waiting bytes are ready at once, and the
    /// bytes win. The timeout is the server's silence, not the client's own pause.
    @Test("a fetch stopped past its idle timeout while the answer arrives, then continued, reads the answer")
    func stoppedThenContinued() throws {
        let directory = try TestScratch.directory("fetch-stopped")
        defer { try? FileManager.default.removeItem(at: directory) }
        let body = [UInt8]((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let steps = StopSteps()
        let listener = try LoopbackListener()
        listener.start { listener, fd, _ in
            guard LoopbackListener.readRequestHead(fd) != nil else { return }
            steps.requestSeen.store(true, ordering: .releasing)
            // Answer only once the client is stopped.
            let deadline = ContinuousClock.now + .seconds(20)
            while !steps.stopped.load(ordering: .acquiring), !listener.isStopping, ContinuousClock.now < deadline { usleep(5_000) }
            LoopbackListener.send(fd, LoopbackListener.responseHead(length: body.count) + body)
            LoopbackListener.closeLingering(fd)
        }
        defer { listener.stop() }
        let out = directory.appendingPathComponent("out.bin").path
        let process = Process()
        process.executableURL = CLIRunner.productsDirectory.appendingPathComponent("keytool")
        process.arguments = ["fetch", listener.url("/payload.bin"), "--idle-timeout", "1", "-o", out] + Self.base
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let pid = process.processIdentifier
        defer { if process.isRunning { kill(pid, SIGKILL) } }
        for _ in 0..<2_000 where !steps.requestSeen.load(ordering: .acquiring) { usleep(5_000) }
        let requestSeen = steps.requestSeen.load(ordering: .acquiring)
        #expect(requestSeen, "the request arrived")
        kill(pid, SIGSTOP)
        steps.stopped.store(true, ordering: .releasing)
        // Stopped for more than twice the idle timeout, the answer waiting in its socket.
        usleep(2_500_000)
        kill(pid, SIGCONT)
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(body))
    }

    @Test("--proxy-user-file and --proxy-user-env give tinyproxy's Basic credentials; none is refused naming the 407, no secret printed",
          .needs("tinyproxy"))
    func proxyCredentials() throws {
        let directory = try TestScratch.directory("fetch-proxy-user")
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("tinyproxy.conf")
        let port = try LoopbackPort.free()
        try Data("""
            Port \(port)
            Listen 127.0.0.1
            Timeout 30
            Allow 127.0.0.1
            BasicAuth coffer pr0xy-s3cret
            LogLevel Critical

            """.utf8).write(to: config)
        let proxy = Process()
        proxy.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        proxy.arguments = ["tinyproxy", "-d", "-c", config.path]
        proxy.standardOutput = FileHandle.nullDevice
        proxy.standardError = FileHandle.nullDevice
        try proxy.run()
        defer {
            kill(proxy.processIdentifier, SIGKILL)
            proxy.waitUntilExit()
        }
        for _ in 0..<500 where !LoopbackPort.accepts(port) { usleep(10_000) }
        let userFile = directory.appendingPathComponent("proxy-user").path
        try Data("coffer:pr0xy-s3cret\r\n".utf8).write(to: URL(fileURLWithPath: userFile))
        try Self.withServer(requireClientCertificate: false) { server, payload, _ in
            let common = ["fetch", server.url("payload.bin"), "--cacert", Self.tls("root-ca.pem"), "--proxy", "http://127.0.0.1:\(port)",
                          "--scheme", "none", "--retry", "0"]
            let fromFile = try CLIRunner.run(common + ["--proxy-user-file", userFile])
            #expect(fromFile.status == 0, "\(fromFile.stderr)")
            #expect(fromFile.stdoutBytes == payload)
            let fromEnvironment = try CLIRunner.run(common + ["--proxy-user-env", "COFFER_PROXY_USER"], environment: ["COFFER_PROXY_USER": "coffer:pr0xy-s3cret"])
            #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
            let none = try CLIRunner.run(common)
            #expect(none.status == 1)
            #expect(none.stderr.contains("requires authentication") && none.stderr.contains("407"), "\(none.stderr)")
            let wrong = try CLIRunner.run(common + ["--proxy-user-env", "COFFER_PROXY_USER"], environment: ["COFFER_PROXY_USER": "coffer:not-it"])
            #expect(wrong.status == 1)
            #expect(!wrong.stderr.contains("not-it") && !fromFile.stderr.contains("pr0xy-s3cret"), "\(wrong.stderr)")
        }
    }

    @Test("a TLS failure is a sentence; the TLS library's own codes appear only with --verbose")
    func verboseDetails() throws {
        try Self.withServer(requireClientCertificate: false) { server, _, _ in
            let plain = try CLIRunner.run(["fetch", server.url("payload.bin")] + Self.base)
            #expect(plain.status == 1)
            #expect(plain.stderr.contains("trusted root"), "\(plain.stderr)")
            #expect(!plain.stderr.contains("CERTIFICATE_VERIFY_FAILED") && !plain.stderr.contains("/checkouts/"), "\(plain.stderr)")
            let verbose = try CLIRunner.run(["fetch", server.url("payload.bin"), "--verbose"] + Self.base)
            #expect(verbose.status == 1)
            #expect(verbose.stderr.contains("CERTIFICATE_VERIFY_FAILED"), "\(verbose.stderr)")
        }
    }

    @Test("a certificate for localhost and 127.0.0.1 is refused for another name mapped to 127.0.0.1 (--resolve), as curl refuses it: plain, --http1.1, --pinnedpubkey")
    func wrongHostName() throws {
        try Self.withServer(requireClientCertificate: false) { server, payload, _ in
            let trust = ["--cacert", Self.tls("root-ca.pem")]
            let wrong = "https://wronghost.test:\(server.port)/payload.bin"
            let resolve = ["--resolve", "wronghost.test:\(server.port):127.0.0.1"]
            for extra in [[], ["--http1.1"], ["--pinnedpubkey", try Self.pin("server")]] {
                let result = try CLIRunner.run(["fetch", wrong] + resolve + trust + extra + Self.base)
                #expect(result.status == 1, "\(extra): \(result.stderr)")
                #expect(result.stdoutBytes.isEmpty)
                #expect(result.stderr.contains("not valid for the host name wronghost.test: it is for IP Address:127.0.0.1, DNS:localhost"), "\(extra): \(result.stderr)")
            }
            let right = try CLIRunner.run(["fetch", "https://localhost:\(server.port)/payload.bin", "--resolve", "localhost:\(server.port):127.0.0.1"] + trust + Self.base)
            #expect(right.status == 0, "\(right.stderr)")
            #expect(right.stdoutBytes == payload)
        }
    }

    @Test("conflicting or incomplete transport options are usage errors", arguments: [
        (["--resolve", "example.com:443"], "HOST:PORT:ADDRESS"),
        (["--resolve", "example.com:x:127.0.0.1"], "HOST:PORT:ADDRESS"),
        (["--pinnedpubkey", "sha256//AAAA"], "not a public key pin"),
        (["--pinnedpubkey", "sha256//q1DdDgvcwDrPuV++utb0861D3BntxTKHQkUeT3tMePk=;"], "not a public key pin"),
        (["--http1.1", "--http2"], "not both"),
        (["--cacert-with-system"], "needs --cacert"),
        (["--client-key", "k.pem"], "go together"),
        (["--client-identity", "a.p12", "--client-cert", "c.pem"], "not both"),
        (["--proxy", "ftp://user:s3cret@proxy"], "not supported"),
    ])
    func usage(arguments: [String], message: String) throws {
        let result = try CLIRunner.run(["fetch", "https://127.0.0.1:1/x", "--scheme", "none"] + arguments)
        #expect(result.status != 0 && result.status != 1, "\(result.status)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("s3cret"))
    }
}

/// The handshake between ``FetchTransportCommandTests/stoppedThenContinued()`` and its server.
private final class StopSteps: Sendable {
    let requestSeen = Atomic<Bool>(false)
    let stopped = Atomic<Bool>(false)
}
