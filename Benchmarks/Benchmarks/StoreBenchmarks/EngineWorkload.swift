import Benchmark
import Foundation

/// The store workload for one engine: sets of new keys, gets of existing keys, and reopening a
/// 100,000-key store. Reads are checked so no engine can pass a broken path off as a fast one.
///
/// `@unchecked Sendable`: the benchmark runner calls every closure of a benchmark from one thread,
/// one after the other, so the mutable state is never touched concurrently.
final class EngineWorkload<Engine: KVEngine>: @unchecked Sendable {
    /// Operations per sample (the benchmarks' scaling factor, so the table shows per-operation figures).
    static var batch: Int { 1000 }
    /// Keys in the reopen benchmark's store.
    static var reopenKeys: Int { 100_000 }
    /// The 32-byte string value.
    static var stringValue: String { "coffer-bench-value-0123456789abc" }

    private var engine: Engine?
    private var directory = ""
    private var nextKey = 0
    private var reopenDirectory: String?

    private func open() throws -> Engine {
        if let engine { return engine }
        directory = ScratchDirectory.make(Engine.name.replacingOccurrences(of: " ", with: "-"))
        let made = try Engine(directory: directory)
        engine = made
        return made
    }

    /// Closes the engine and removes its files.
    func reset() throws {
        try engine?.close()
        engine = nil
        nextKey = 0
        if !directory.isEmpty { try? FileManager.default.removeItem(atPath: directory) }
    }

    private func newKeys(_ prefix: String) -> [String] {
        defer { nextKey += Self.batch }
        return (nextKey..<nextKey + Self.batch).map { "\(prefix)-\($0)" }
    }

    /// One sample: `batch` int64 sets of keys the store has never seen.
    func setNewInt64(_ benchmark: Benchmark) throws {
        let engine = try open()
        let keys = newKeys("int")
        benchmark.startMeasurement()
        for (index, key) in keys.enumerated() { try engine.setInt64(Int64(index), forKey: key) }
        benchmark.stopMeasurement()
    }

    /// One sample: `batch` int64 gets of present keys (the first sample fills the store).
    func getInt64(_ benchmark: Benchmark) throws {
        let engine = try open()
        if nextKey == 0 {
            for index in 0..<10 * Self.batch { try engine.setInt64(Int64(index), forKey: "get-\(index)") }
            nextKey = 1
        }
        let keys = (0..<Self.batch).map { "get-\($0 * 7 % (10 * Self.batch))" }
        var sum: Int64 = 0
        benchmark.startMeasurement()
        for key in keys { sum &+= try engine.int64(forKey: key) ?? -1_000_000 }
        benchmark.stopMeasurement()
        let expected = (0..<Self.batch).reduce(Int64(0)) { $0 + Int64($1 * 7 % (10 * Self.batch)) }
        guard sum == expected else { throw BenchmarkFailure("\(Engine.name) read back wrong int64 values") }
    }

    /// One sample: `batch` sets of the 32-byte string under keys the store has never seen.
    func setNewString(_ benchmark: Benchmark) throws {
        let engine = try open()
        let keys = newKeys("str")
        let value = Self.stringValue
        benchmark.startMeasurement()
        for key in keys { try engine.setString(value, forKey: key) }
        benchmark.stopMeasurement()
        guard try engine.string(forKey: keys[keys.count - 1]) == value else {
            throw BenchmarkFailure("\(Engine.name) read back a wrong string")
        }
    }

    /// One sample: open the 100,000-key store (half int64, half 32-byte strings) and load it.
    func reopen(_ benchmark: Benchmark) throws {
        let directory = try reopenStore()
        benchmark.startMeasurement()
        let engine = try Engine(directory: directory)
        let count = try engine.load()
        benchmark.stopMeasurement()
        blackHole(count)
        guard try engine.int64(forKey: "r-0") == 0, try engine.string(forKey: "r-1") == Self.stringValue else {
            throw BenchmarkFailure("\(Engine.name) reopened store misses values")
        }
        try engine.close()
    }

    private func reopenStore() throws -> String {
        if let reopenDirectory { return reopenDirectory }
        let directory = ScratchDirectory.make(Engine.name.replacingOccurrences(of: " ", with: "-") + "-100k")
        let engine = try Engine(directory: directory)
        for index in 0..<Self.reopenKeys {
            if index % 2 == 0 {
                try engine.setInt64(Int64(index), forKey: "r-\(index)")
            } else {
                try engine.setString(Self.stringValue, forKey: "r-\(index)")
            }
        }
        try engine.close()
        reopenDirectory = directory
        return directory
    }
}
