import KVStorage

/// Coffer's KVStore, single-process, unencrypted (MMKV's defaults).
final class CofferEngine: KVEngine {
    static let name = "Coffer KVStore"
    private let store: KVStore

    init(directory: String) throws {
        store = try KVStore(KVStoreConfiguration(directory: directory, id: "bench"))
    }

    func setInt64(_ value: Int64, forKey key: String) throws { try store.set(value, forKey: key) }
    func int64(forKey key: String) throws -> Int64? { try store.int64(forKey: key) }
    func setString(_ value: String, forKey key: String) throws { try store.set(value, forKey: key) }
    func string(forKey key: String) throws -> String? { try store.string(forKey: key) }
    /// Opening already loaded every entry; the count proves it.
    func load() throws -> Int { try store.count() }
    func close() throws { store.close() }
}
