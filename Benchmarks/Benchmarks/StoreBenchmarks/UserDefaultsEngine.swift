import Foundation

/// Foundation's `UserDefaults` (swift-corelibs-foundation on Linux) with its own suite. The suite's
/// plist lives under `$XDG_CONFIG_HOME`, which the benchmark points at a scratch directory.
final class UserDefaultsEngine: KVEngine {
    static let name = "UserDefaults"
    /// No reopen benchmark: swift-corelibs-foundation keeps a suite cached in the process (a "reopen"
    /// would not read the plist), and filling 100,000 keys would take far too long (each set cost
    /// 0.5–2 ms at a few thousand keys here, growing with the suite).
    static var measuresReopen: Bool { false }
    private let defaults: UserDefaults
    private let suite: String

    init(directory: String) throws {
        suite = "coffer.bench." + directory.split(separator: "/").last.map(String.init)!
        guard let defaults = UserDefaults(suiteName: suite) else { throw BenchmarkFailure("UserDefaults(suiteName:) failed") }
        self.defaults = defaults
    }

    func setInt64(_ value: Int64, forKey key: String) throws { defaults.set(value, forKey: key) }
    func int64(forKey key: String) throws -> Int64? {
        (defaults.object(forKey: key) as? NSNumber)?.int64Value
    }
    func setString(_ value: String, forKey key: String) throws { defaults.set(value, forKey: key) }
    func string(forKey key: String) throws -> String? { defaults.string(forKey: key) }
    func load() throws -> Int { defaults.dictionaryRepresentation().count }
    func close() throws {
        guard defaults.synchronize() else { throw BenchmarkFailure("UserDefaults.synchronize() failed") }
    }
}
