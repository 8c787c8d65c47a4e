import ArgumentParser
import CofferJSON
import CommandLineSupport
import FoundationEssentials
import KVStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Kvstore {
    /// `kvstore bench [--count N] [--json] [--only STEP]`: the standard store workload on a scratch store.
    struct BenchCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bench",
            abstract: "Time the standard workload on a scratch store (a temporary directory, removed after).",
            discussion: """
                N new int64 sets, N int64 gets, N int64 overwrites, N new 32-byte string sets, N string \
                gets, then close, reopen and load. Each step is timed in chunks of 1,000 operations and \
                the median chunk reported (the reopen: the median of 5). --json prints one object: \
                int64Set, int64Get, int64Overwrite, stringSet, stringGet (ns per operation), reopenMs, \
                reopenCpuMs (the reopen's CPU time, for busy machines), dataFileBytes, and \
                loadRssBytes (resident memory a fresh process gains by opening the store; -1 when it \
                cannot be measured), then the cost of .system durability on a second scratch store: \
                int64SetSystem (ns per int64 set that returns only once flushed to the disk, from one \
                thread, up to 500 sets in chunks of 50) and int64SetSystemParallel (ns per set from 4 \
                threads at once, which share flushes). The global --dir/--id are ignored; \
                --crypt-key-*/--aes256 and --single-process apply to the scratch stores (shared, the \
                default, costs a flock and a change check per operation).

                --only STEP (int64-set, int64-get, string-set, string-get, or string-view-get: string \
                gets through withString, which makes no String) runs that step alone, for \
                instruction counts: the sets a get step needs, then --count operations of the step, \
                untimed, inside the function StoreWorkload.measuredPhase, and prints nothing. Count \
                them with valgrind --tool=callgrind --toggle-collect='*measuredPhase*' (tools/mmkv-bench).
                """)

        @ParentCommand var root: Kvstore

        @Option(name: .long, help: "Operations per step.")
        var count = 100_000

        @Flag(name: .long, help: "Print one JSON object.")
        var json = false

        @Option(name: .long, help: ArgumentHelp("Run only this step, untimed, and print nothing.", valueName: "step"))
        var only: StoreWorkload.Phase?

        func validate() throws {
            if count < 1 || count > 10_000_000 { throw ValidationError("--count must be between 1 and 10000000") }
        }

        func run() throws {
            let directory = try BenchCommand.makeScratchDirectory()
            defer { SystemIO.removeTree(directory) }
            var configuration = try root.globals.configuration(.readWrite)
            configuration.directory = directory
            configuration.id = "bench"
            if let only {
                do { try StoreWorkload.runOnly(only, configuration: configuration, count: count) } catch {
                    throw KvstoreToolError(error)
                }
                return
            }
            let result: StoreWorkload.Result
            do {
                result = try StoreWorkload.run(configuration: configuration, count: count)
            } catch {
                throw KvstoreToolError(error)
            }
            let rss = BenchCommand.measureLoadRSS(directory: directory, globals: root.globals)
            let fields: [(String, String)] = [
                ("int64Set", BenchCommand.format(result.int64Set)),
                ("int64Get", BenchCommand.format(result.int64Get)),
                ("int64Overwrite", BenchCommand.format(result.int64Overwrite)),
                ("stringSet", BenchCommand.format(result.stringSet)),
                ("stringGet", BenchCommand.format(result.stringGet)),
                ("reopenMs", BenchCommand.format(result.reopenMs)),
                ("reopenCpuMs", BenchCommand.format(result.reopenCpuMs)),
                ("dataFileBytes", String(result.dataFileBytes)),
                ("loadRssBytes", String(rss ?? -1)),
                ("int64SetSystem", BenchCommand.format(result.int64SetSystem)),
                ("int64SetSystemParallel", BenchCommand.format(result.int64SetSystemParallel)),
            ]
            if json {
                SystemIO.writeStandardOutput(JSONValue(object: fields.map { ($0.0, .number($0.1)) }).serialized + "\n")
            } else {
                let units = ["reopenMs": "ms", "reopenCpuMs": "ms", "dataFileBytes": "bytes", "loadRssBytes": "bytes"]
                // Field names are padded to the longest.
                var text = "kvstore bench, \(count) operations per step\n"
                for (name, value) in fields {
                    text += name + String(repeating: " ", count: max(0, 24 - name.count)) + value + " " + (units[name] ?? "ns/op") + "\n"
                }
                SystemIO.writeStandardOutput(text)
            }
        }

        /// A number with at most one decimal.
        static func format(_ value: Double) -> String {
            let rounded = (value * 10).rounded() / 10
            return ValueType.shortest(rounded.description)
        }

        static func makeScratchDirectory() throws(KvstoreToolError) -> String {
            var temporary = SystemIO.environment("TMPDIR") ?? "/tmp"
            if !temporary.hasSuffix("/") { temporary += "/" }
            let base = temporary + "kvstore-bench-XXXXXX"
            var template = Array(base.utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            guard made != nil else {
                throw KvstoreToolError("cannot create a scratch directory", path: base)
            }
            return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// Runs `kvstore _measure-load` on the scratch store in a fresh process and returns the
        /// resident memory it gained by opening the store, or `nil`.
        static func measureLoadRSS(directory: String, globals: GlobalOptions) -> Int? {
            var arguments = ["--dir", directory, "--id", "bench"]
            if let file = globals.cryptKeyFile { arguments += ["--crypt-key-file", file] }
            if let variable = globals.cryptKeyEnv { arguments += ["--crypt-key-env", variable] }
            if globals.aes256 { arguments.append("--aes256") }
            guard let (status, output) = SystemIO.runSelf(arguments + ["_measure-load"]), status == 0 else { return nil }
            return Int(String(decoding: output.filter { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: " ") }, as: UTF8.self))
        }
    }

    /// `kvstore _measure-load` (hidden): opens the store and prints how many bytes of resident
    /// memory (VmRSS) that added to this process.
    struct MeasureLoadCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "_measure-load", shouldDisplay: false)

        @ParentCommand var root: Kvstore

        func run() throws {
            let configuration = try root.globals.configuration(.readOnly)
            guard let before = MeasureLoadCommand.residentBytes() else {
                throw KvstoreToolError("cannot read VmRSS", path: "/proc/self/status")
            }
            let store: KVStore
            do { store = try KVStore(configuration) } catch { throw KvstoreToolError(error) }
            let after = MeasureLoadCommand.residentBytes() ?? before
            withExtendedLifetime(store) {}
            SystemIO.writeStandardOutput("\(after - before)\n")
        }

        /// This process's resident set size from `/proc/self/status`.
        static func residentBytes() -> Int? {
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
            for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count >= 2, let kilobytes = Int(fields[1]) else { return nil }
                return kilobytes * 1024
            }
            return nil
        }
    }
}

extension StoreWorkload.Phase: ExpressibleByArgument {}
