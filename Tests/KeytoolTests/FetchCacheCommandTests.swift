import Foundation
import Testing

/// `keytool fetch` cache flags against the raw-socket test server (`FetchCommandTests.Server`).
extension FetchCommandTests {
    @Test("--cache-ttl serves without a request; --refresh revalidates (304); --no-cache fetches in full and still stores")
    func cacheFlags() throws {
        let plain = Self.plaintext(5_000, seed: 7)
        let server = try Server(files: ["/t": .init(bytes: plain, etag: "\"t1\"")])
        defer { server.stop() }
        let scratch = try Scratch()
        let cache = scratch.file("cache")
        func fetch(_ extra: [String]) throws -> CLIResult {
            try CLIRunner.run(["fetch", server.url("/t"), "--scheme", "none", "--cache", cache] + extra)
        }
        for _ in 0..<2 {
            let result = try fetch(["--cache-ttl", "3600"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdoutBytes == plain)
        }
        #expect(server.requests.count == 1)

        let refreshed = try fetch(["--cache-ttl", "3600", "--refresh"])
        #expect(refreshed.status == 0 && refreshed.stdoutBytes == plain, "\(refreshed.stderr)")
        #expect(server.requests.count == 2 && server.notModifiedCount == 1)
        #expect(server.lastRequest?.lowercased().contains("if-none-match: \"t1\"") == true)

        let reloaded = try fetch(["--no-cache"])
        #expect(reloaded.status == 0 && reloaded.stdoutBytes == plain, "\(reloaded.stderr)")
        #expect(server.requests.count == 3 && server.notModifiedCount == 1)
        #expect(server.lastRequest?.lowercased().contains("if-none-match") == false)

        // Without a TTL the entry (no Cache-Control from this server) is stale: revalidated.
        #expect(try fetch([]).stdoutBytes == plain)
        #expect(server.requests.count == 4 && server.notModifiedCount == 2)
    }

    @Test("--offline with the server stopped: the cached body, exit 0; a URL not cached fails with exit 1 and no request")
    func offline() throws {
        let plain = Self.plaintext(5_000, seed: 8)
        let server = try Server(files: ["/o": .init(bytes: plain, etag: "\"o1\"")])
        let scratch = try Scratch()
        let cache = scratch.file("cache")
        let url = server.url("/o")
        let missing = server.url("/missing")
        let first = try CLIRunner.run(["fetch", url, "--scheme", "none", "--cache", cache])
        #expect(first.status == 0, "\(first.stderr)")
        server.stop()

        let online = try CLIRunner.run(["fetch", url, "--scheme", "none", "--cache", cache, "--retry", "0"])
        #expect(online.status == 1, "a stale entry is revalidated, and the server is down")
        #expect(online.stderr.contains("connection refused"), "the stopped server refuses: \(online.stderr)")
        let offline = try CLIRunner.run(["fetch", url, "--scheme", "none", "--cache", cache, "--offline"])
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stdoutBytes == plain)
        let miss = try CLIRunner.run(["fetch", missing, "--scheme", "none", "--cache", cache, "--offline"])
        #expect(miss.status == 1)
        #expect(miss.stderr.contains("not in the cache") && miss.stderr.contains("/missing"), "\(miss.stderr)")
        #expect(server.requests.count == 1, "only the first run reached the server")
    }

    @Test("--cache-stats, --cache-remove URL and --cache-trim maintain the cache without a URL or a key")
    func cacheMaintenance() throws {
        let server = try Server(files: ["/a": .init(bytes: Self.plaintext(3_000, seed: 1)), "/b": .init(bytes: Self.plaintext(3_000, seed: 2)),
                                        "/c": .init(bytes: Self.plaintext(3_000, seed: 3))])
        defer { server.stop() }
        let scratch = try Scratch()
        let cache = scratch.file("cache")
        for (path, ttl) in [("/a", "0"), ("/b", "3600"), ("/c", "3600")] {
            let result = try CLIRunner.run(["fetch", server.url(path), "--scheme", "none", "--cache", cache, "--cache-ttl", ttl])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let stats = try CLIRunner.run(["fetch", "--cache", cache, "--cache-stats"])
        #expect(stats.status == 0, "\(stats.stderr)")
        let lines = stats.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3 && lines[0] == "entries: 3" && lines[2] == "expired: 1", "\(stats.stdout)")
        let bytes = Int(lines[1].dropFirst("bytes: ".count)) ?? 0
        #expect(bytes > 9_000 && bytes < 12_000, "\(lines[1])")

        let removed = try CLIRunner.run(["fetch", "--cache", cache, "--cache-remove", server.url("/b")])
        #expect(removed.status == 0 && removed.stdout == "removed 1 entry\n", "\(removed.stdout)\(removed.stderr)")
        let trimmed = try CLIRunner.run(["fetch", "--cache", cache, "--cache-trim", "--cache-max-entries", "0"])
        #expect(trimmed.stdout == "removed 1 expired and 1 least recently used entry\n", "\(trimmed.stdout)\(trimmed.stderr)")
        #expect(try CLIRunner.run(["fetch", "--cache", cache, "--cache-stats"]).stdout == "entries: 0\nbytes: 0\nexpired: 0\n")
        #expect(server.requests.count == 3)
    }

    @Test("misused cache flags exit 64 with a reason")
    func cacheFlagErrors() throws {
        let url = "http://127.0.0.1:1/x"
        for (arguments, message) in [
            (["fetch", url, "--scheme", "none", "--offline"], "--offline needs --cache DIR"),
            (["fetch", url, "--scheme", "none", "--cache", "/tmp/c", "--offline", "--refresh"], "at most one of --offline"),
            (["fetch", url, "--cache", "/tmp/c", "--cache-stats"], "take no URL"),
            (["fetch", url, "--scheme", "none", "--cache", "/tmp/c", "--cache-ttl", "-1"], "--cache-ttl"),
            (["fetch", "--cache-stats"], "--cache-stats needs --cache DIR"),
        ] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }
}
