import Foundation
import KVStorage

struct Settings: Codable {
    var theme: String
    var fontSize: Int
}

/// Opens a store in `directory`, writes typed and Codable values, reads them back, and shows that
/// a second open of the same store in one process is an error, not a second copy.
func storeExample(directory: String) throws {
    var configuration = KVStoreConfiguration(directory: directory, id: "example")
    configuration.durability = .system    // each write returns once it is on the disk
    let store = try KVStore(configuration)
    defer { store.close() }

    try store.set(Int64(42), forKey: "launches")
    try store.set("dark", forKey: "theme")
    try store.set(Settings(theme: "dark", fontSize: 14), forKey: "settings")   // JSON in a bytes value

    let launches = try store.int64(forKey: "launches") ?? 0
    let theme = try store.string(forKey: "theme") ?? "none"
    let settings = try store.get(Settings.self, forKey: "settings")
    print("launches \(launches), theme \(theme), font size \(settings?.fontSize ?? 0), keys \(try store.count())")
    print("files:", configuration.dataPath, configuration.metaPath)

    do throws(KVStoreError) {
        _ = try KVStore(configuration)
    } catch {
        print("second open: \(error.code): \(error)")
    }
}
