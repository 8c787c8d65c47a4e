import CofferTestSupport
import KVStorage
import Foundation
import Testing

/// Usage errors (exit 64) and `kvstore bench`.
@Suite("usage errors and bench")
struct UsageAndBenchTests {
    static let usageErrors: [[String]] = [
        ["frobnicate"],
        ["get"],
        ["set", "k"],
        ["set", "k", "v", "--type", "complex"],
        ["--crypt-key-file", "a", "--crypt-key-env", "B", "count"],
        ["--crypt-key", "secret", "count"],
        ["rekey"],
        ["rekey", "--remove-key", "--new-crypt-key-env", "X"],
        ["delete"],
        ["bench", "--count", "0"],
        ["--id", "", "count"],
    ]

    @Test("usage errors exit 64 with kvstore: error: on stderr", arguments: usageErrors)
    func usageError(arguments: [String]) throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try KvstoreRunner.run(["--dir", directory] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("kvstore: error: "))
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.contains("secret"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test("--version prints CofferVersion on stdout with status 0")
    func version() throws {
        let result = try KvstoreRunner.run(["--version"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == CofferVersion.string + "\n")
        #expect(result.stderr.isEmpty)
    }

    @Test("--help exits 0 and lists the commands")
    func help() throws {
        let result = try KvstoreRunner.run(["--help"])
        #expect(result.status == 0)
        for command in ["set", "get", "delete", "list", "count", "dump", "stats", "verify", "compact", "rekey", "import", "export", "bench"] {
            #expect(result.stdout.contains("  \(command) "), "\(command)")
        }
    }

    @Test("bench --json --count 2000 prints one object with every field")
    func bench() throws {
        let result = try KvstoreRunner.run(["bench", "--json", "--count", "2000"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        for field in ["int64Set", "int64Get", "int64Overwrite", "stringSet", "stringGet", "reopenMs", "reopenCpuMs",
                      "int64SetSystem", "int64SetSystemParallel"] {
            let value = try #require((object[field] as? NSNumber)?.doubleValue, "\(field)")
            #expect(value > 0, "\(field)")
        }
        let bytes = try #require(object["dataFileBytes"] as? Int)
        // 4,000 entries of at least 8 bytes each, in whole pages.
        #expect(bytes >= 32_000 && bytes % 4096 == 0)
        // Measured by a child kvstore process (_measure-load) reading /proc/self/status.
        let rss = try #require(object["loadRssBytes"] as? Int)
        #if os(Linux)
        #expect(rss > 0, "the _measure-load child ran and reported its resident memory")
        #else
        #expect(rss == -1 || rss > 0)
        #endif
    }

    @Test("bench --only STEP runs each step alone, silently, and checks what it read", arguments: StoreWorkloadSteps.all)
    func benchOnly(step: String) throws {
        let result = try KvstoreRunner.run(["bench", "--only", step, "--count", "500"])
        #expect(result.status == 0, "\(step): \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}

/// The steps `kvstore bench --only` takes (tools/mmkv-bench counts their instructions).
enum StoreWorkloadSteps {
    static let all = ["int64-set", "int64-get", "string-set", "string-get", "string-view-get"]
}
