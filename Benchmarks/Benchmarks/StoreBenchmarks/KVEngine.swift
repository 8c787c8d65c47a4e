/// A key-value engine the store benchmarks drive with the same workload: Coffer's KVStore, Foundation's
/// UserDefaults and SQLite. Every engine keeps its files in its own scratch directory.
protocol KVEngine: AnyObject {
    /// The name shown in the benchmark table.
    static var name: String { get }
    /// Opens (creating if needed) the engine's store in `directory`.
    init(directory: String) throws
    func setInt64(_ value: Int64, forKey key: String) throws
    func int64(forKey key: String) throws -> Int64?
    func setString(_ value: String, forKey key: String) throws
    func string(forKey key: String) throws -> String?
    /// Loads the store the way a fresh process would before its first read (the reopen benchmark).
    func load() throws -> Int
    /// Flushes and closes.
    func close() throws
    /// Whether the reopen benchmark means anything for this engine.
    static var measuresReopen: Bool { get }
}

extension KVEngine {
    static var measuresReopen: Bool { true }
}

/// Failures of the benchmark harness itself (an engine refusing a call, a wrong read-back).
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
