import CofferTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `kvstore` as people run it: several shells or cron jobs writing one store at once with default
/// flags, and a full disk. Every call is its own process; what one acknowledged (exit 0) must be in
/// the store, and a full disk is an error with exit 1, never a signal.
@Suite("kvstore under real use", .serialized)
struct RealUseTests {
    /// `sh -c SCRIPT` with `kvstore` on the PATH, returning the shell's status and output.
    static func shell(_ script: String, environment: [String: String] = [:]) throws -> ToolOutput {
        let path = KvstoreRunner.productsDirectory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try ToolProcess.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", script], environment: environment.merging(["PATH": path]) { $1 },
            removingEnvironment: ["KVSTORE_DIR"])
    }

    @Test("8 overlapping `kvstore set` loops × 200 keys with default flags: every acknowledged key is there, verify ok")
    func overlappingWriters() throws {
        let directory = try TestScratch.directory("overlap").path
        let writers = 8
        let keys = 200
        // Each loop is its own shell, started at once (a shell's `wait` builtin is not used: the test
        // process blocks SIGCHLD, which its children inherit). A loop prints the keys whose set
        // exited 0: those are the acknowledged writes.
        let results = Mutex<[Int: ToolOutput]>([:])
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            let loop = """
                i=0; while [ $i -lt \(keys) ]; do \
                if kvstore --dir "$DIR" set "w\(writer)-k$i" "value $i of writer \(writer)"; then echo "w\(writer)-k$i"; fi; \
                i=$((i+1)); done
                """
            let output = try? Self.shell(loop, environment: ["DIR": directory])
            results.withLock { $0[writer] = output }
        }
        var acknowledged: [String] = []
        for writer in 0..<writers {
            let output = try #require(results.withLock { $0[writer] })
            acknowledged += output.text.split(separator: "\n").map(String.init)
            #expect(output.stderr.isEmpty, "writer \(writer) reported errors: \(output.stderr.prefix(500))")
        }
        #expect(acknowledged.count == writers * keys, "every set succeeds: sharing is the default")

        let verify = try KvstoreRunner.run(["--dir", directory, "verify"])
        #expect(verify.status == 0, "verify: \(verify.stderr)")
        let list = try KvstoreRunner.run(["--dir", directory, "list"])
        #expect(list.status == 0)
        let present = Set(list.stdout.split(separator: "\n").map(String.init))
        let lost = acknowledged.filter { !present.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) acknowledged writes lost, e.g. \(lost.prefix(5))")
        let sample = try KvstoreRunner.run(["--dir", directory, "get", "w3-k117"])
        #expect(sample.stdout == "value 117 of writer 3\n")
    }

    @Test("a damaged store's error names the ways out, and --on-damage recover opens it")
    func damageWaysOut() throws {
        let directory = try TestScratch.directory("damage").path
        for number in 0..<20 {
            #expect(try KvstoreRunner.run(["--dir", directory, "set", "k\(number)", "value \(number)"]).status == 0)
        }
        // Flip one byte of the last entry's value: the CRC no longer matches.
        let dataPath = directory + "/mmkv.default"
        var bytes = try KvstoreRunner.bytes(dataPath)
        let size = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16
        bytes[4 + size - 2] ^= 0x55
        try Data(bytes).write(to: URL(fileURLWithPath: dataPath))

        let count = try KvstoreRunner.run(["--dir", directory, "count"])
        #expect(count.status == 1)
        #expect(count.stderr.contains("CRC mismatch"))
        #expect(count.stderr.contains("kvstore salvage --to DIR"))
        #expect(count.stderr.contains("--on-damage recover"))
        #expect(!count.stderr.contains("recover policy"), "no library wording in the CLI")
        #expect(try KvstoreRunner.bytes(dataPath) == bytes, "the files were left as they are")

        let recovered = try KvstoreRunner.run(["--dir", directory, "--on-damage", "recover", "count"])
        #expect(recovered.status == 0, "\(recovered.stderr)")
        #expect(Int(recovered.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 >= 19)
    }

    /// A full disk for `kvstore set`: the set fails with exit 1 and a message naming the errno and
    /// that nothing was written; the store keeps every earlier value and takes writes again once
    /// there is room.
    static func checkFullDisk(directory: String, fill: () throws -> Void, drain: () throws -> Void, environment: [String: String] = [:]) throws {
        let dir = ["--dir", directory]
        #expect(try KvstoreRunner.run(dir + ["set", "before", "written before the disk filled"], environment: environment).status == 0)
        try fill()
        let big = String(repeating: "x", count: 100 * 1024)
        var failure: KvstoreResult?
        for number in 0..<64 {
            let result = try KvstoreRunner.run(dir + ["set", "big\(number)", big], environment: environment)
            #expect(result.status == 0 || result.status == 1, "exit \(result.status): \(result.stderr)")
            if result.status != 0 { failure = result; break }
        }
        let failed = try #require(failure, "the file system never filled")
        #expect(failed.stderr.contains("kvstore: error:"))
        #expect(failed.stderr.contains("nothing was written"))
        #expect(failed.stderr.contains("No space left on device") || failed.stderr.contains("File too large"))
        // Readable on the full disk, every command: no SIGBUS.
        for command in [["get", "before"], ["count"], ["verify"], ["list"], ["stats"], ["dump"]] {
            let result = try KvstoreRunner.run(dir + command, environment: environment)
            #expect(result.status == 0, "\(command) on a full disk: exit \(result.status) \(result.stderr)")
        }
        // Compaction on a full disk: an error, the files byte for byte as they were.
        let dataPath = directory + "/mmkv.default"
        let dataBefore = try KvstoreRunner.bytes(dataPath)
        let metaBefore = try KvstoreRunner.bytes(dataPath + ".crc")
        let compact = try KvstoreRunner.run(dir + ["compact"], environment: environment)
        if compact.status != 0 {
            #expect(compact.status == 1)
            #expect(compact.stderr.contains("nothing was written"))
            #expect(try KvstoreRunner.bytes(dataPath) == dataBefore)
            #expect(try KvstoreRunner.bytes(dataPath + ".crc") == metaBefore)
        }
        try drain()
        #expect(try KvstoreRunner.run(dir + ["set", "after", "room again"], environment: environment).status == 0)
        #expect(try KvstoreRunner.run(dir + ["get", "before"], environment: environment).stdout == "written before the disk filled\n")
        #expect(try KvstoreRunner.run(dir + ["get", "after"], environment: environment).stdout == "room again\n")
        #expect(try KvstoreRunner.run(dir + ["verify"], environment: environment).status == 0)
    }

    @Test("a full tmpfs: set fails with exit 1, reads and compaction stay safe, writes resume with room",
          .enabled(if: SmallFileSystem.available, "needs root and the right to mount a tmpfs"))
    func fullTmpfs() throws {
        let disk = try SmallFileSystem(bytes: 2 * 1024 * 1024)
        defer { disk.unmount() }
        try Self.checkFullDisk(directory: disk.path + "/store", fill: { try disk.fill(leaving: 96 * 1024) }, drain: { disk.drain() })
    }

    @Test("a file size limit (RLIMIT_FSIZE) instead of a full disk: set fails with exit 1, never SIGXFSZ")
    func fileSizeLimit() throws {
        let directory = try TestScratch.directory("fsize").path
        // bash's `ulimit -f` counts 1024-byte blocks; the limit applies to kvstore, which bash execs.
        let kvstore = KvstoreRunner.productsDirectory.appendingPathComponent("kvstore").path
        func run(_ arguments: [String], limitKiB: Int) throws -> KvstoreResult {
            let output = try ToolProcess.run(
                URL(fileURLWithPath: "/bin/bash"), ["-c", "ulimit -f \(limitKiB) || exit 99; exec \"$0\" \"$@\"", kvstore] + arguments,
                removingEnvironment: ["KVSTORE_DIR"])
            return KvstoreResult(status: output.status, stdout: output.text, stderr: output.stderr)
        }
        let dir = ["--dir", directory]
        let first = try run(dir + ["set", "before", "small"], limitKiB: 64)
        try #require(first.status != 99, "the shell cannot set a file size limit")
        #expect(first.status == 0, "\(first.stderr)")
        let big = String(repeating: "y", count: 100 * 1024)
        let over = try run(dir + ["set", "big", big], limitKiB: 64)
        #expect(over.status == 1, "exit \(over.status) (128+25 would be SIGXFSZ): \(over.stderr)")
        #expect(over.stderr.contains("File too large"))
        #expect(over.stderr.contains("nothing was written"))
        #expect(try run(dir + ["get", "before"], limitKiB: 64).stdout == "small\n")
        #expect(try run(dir + ["verify"], limitKiB: 64).status == 0)
        #expect(try run(dir + ["set", "big", big], limitKiB: 4096).status == 0)
        #expect(try run(dir + ["get", "before"], limitKiB: 4096).stdout == "small\n")
    }
}
