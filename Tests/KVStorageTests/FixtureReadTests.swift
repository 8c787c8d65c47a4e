import CofferErrors
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import KVStorage

/// Every store written by the real MMKV reads back to exactly the values in its dump.
@Suite("MMKV fixture stores", .serialized)
struct FixtureReadTests {
    static let plainFixtures = ["plain", "deleted", "compacted", "onekey", "large", "empty"]

    static func configuration(_ id: String, directory: String, mode: KVStoreConfiguration.AccessMode = .readOnly) -> KVStoreConfiguration {
        var configuration = KVStoreConfiguration(directory: directory, id: id, accessMode: mode)
        switch id {
        case "aes128":
            configuration.cryptKey = SecureBytes(Array("coffer-fixture-key".utf8))
        case "aes256":
            configuration.cryptKey = SecureBytes(Array("coffer-fixture-aes256-key-32byte".utf8))
            configuration.cipher = .aes256
        default:
            break
        }
        return configuration
    }

    /// Checks every key of the dump against the store, raw bytes and typed value.
    static func compare(_ store: KVStore, with dump: FixtureDump) throws {
        #expect(try store.count() == dump.entries.count)
        #expect(Set(try store.allKeys()) == Set(dump.entries.map(\.key)))
        for entry in dump.entries {
            let raw = try #require(try store.rawValue(forKey: entry.key), "missing \(entry.key)")
            #expect(TestHex.string(raw) == entry.rawHex, "raw bytes of \(entry.key)")
            try compareTyped(store, entry)
        }
    }

    static func compareTyped(_ store: KVStore, _ entry: DumpEntry) throws {
        let key = entry.key
        let text = entry.valueText ?? ""
        switch entry.type {
        case "i32": #expect(try store.int32(forKey: key) == Int32(text), "\(key)")
        case "u32": #expect(try store.uint32(forKey: key) == UInt32(text), "\(key)")
        case "i64": #expect(try store.int64(forKey: key) == Int64(text), "\(key)")
        case "u64": #expect(try store.uint64(forKey: key) == UInt64(text), "\(key)")
        case "bool": #expect(try store.bool(forKey: key) == (entry.value as? Bool), "\(key)")
        case "f32": #expect(try store.float(forKey: key) == Float(text), "\(key)")
        case "f64": #expect(try store.double(forKey: key) == Double(text), "\(key)")
        case "str": #expect(try store.string(forKey: key) == (entry.value as? String), "\(key)")
        case "bytes": #expect(try store.bytes(forKey: key).map { TestHex.string($0) } == (entry.value as? String), "\(key)")
        case "vec": #expect(try store.strings(forKey: key) == (entry.value as? [String]), "\(key)")
        case nil:
            // The onekey dump has no type; its value is a string.
            #expect(try store.string(forKey: key) != nil)
        default:
            Issue.record("unknown type \(entry.type ?? "") for \(key)")
        }
    }

    @Test("plain stores read back exactly", arguments: plainFixtures)
    func readPlainFixture(id: String) throws {
        let dump = try FixtureDump(id: id)
        let store = try KVStore(Self.configuration(id, directory: MMKVFixtures.directory.appendingPathComponent("stores").path))
        defer { store.close() }
        try Self.compare(store, with: dump)
        let statistics = try store.statistics()
        #expect(statistics.actualSize == dump.meta["meta_actual_size"] as? Int)
        #expect(statistics.sequence == UInt32(dump.meta["sequence"] as! Int))
        #expect(statistics.crcValid)
        #expect(statistics.fileSize == dump.meta["data_file_size"] as? Int)
    }

    @Test("edge values of the plain store")
    func plainEdgeValues() throws {
        let store = try KVStore(Self.configuration("plain", directory: MMKVFixtures.directory.appendingPathComponent("stores").path))
        defer { store.close() }
        #expect(try store.int32(forKey: "i32_min") == Int32.min)
        #expect(try store.int32(forKey: "i32_neg1") == -1)
        #expect(try store.int64(forKey: "i64_min") == Int64.min)
        #expect(try store.uint64(forKey: "u64_max") == UInt64.max)
        #expect(try store.double(forKey: "f64_three") == 3)
        #expect(try store.string(forKey: "str_empty") == "")
        #expect(try store.string(forKey: "str_long300") == String(repeating: "x", count: 300))
        #expect(try store.string(forKey: "str_unicode_kéy") == "kéy")
        #expect(try store.string(forKey: "str_overwritten") == "second")
        #expect(try store.strings(forKey: "vec_strings") == ["a", "bb", "ccc"])
        #expect(try store.string(forKey: "no such key") == nil)
        #expect(throws: KVStoreError(.typeMismatch, "")) { try store.float(forKey: "str_long300") }
    }

    @Test("deletions, overrides and the single-key override path")
    func deletedAndOnekey() throws {
        let directory = MMKVFixtures.directory.appendingPathComponent("stores").path
        let deleted = try KVStore(Self.configuration("deleted", directory: directory))
        defer { deleted.close() }
        for key in ["str_7", "i32_0", "i64_2", "bool_4", "f32_5"] {
            #expect(try deleted.contains(key) == false, "\(key) was removed")
        }
        #expect(try deleted.string(forKey: "str_16") == "overwritten value")
        let onekey = try KVStore(Self.configuration("onekey", directory: directory))
        defer { onekey.close() }
        #expect(try onekey.allKeys() == ["only"])
        #expect(try onekey.string(forKey: "only") == "third")
    }

    @Test("read-write open of every plain fixture keeps every value", arguments: plainFixtures)
    func readWriteOpen(id: String) throws {
        let directory = try MMKVFixtures.copyStore(id)
        defer { TestSupport.removeDirectory(directory) }
        let dump = try FixtureDump(id: id)
        let store = try KVStore(Self.configuration(id, directory: directory, mode: .readWrite))
        try Self.compare(store, with: dump)
        store.close()
        // The files were not changed by opening them.
        #expect(try TestSupport.read(directory + "/" + id) == TestSupport.read(MMKVFixtures.directory.appendingPathComponent("stores/" + id).path))
    }

    @Test("in-memory decoding matches the dump", arguments: plainFixtures)
    func snapshot(id: String) throws {
        let stores = MMKVFixtures.directory.appendingPathComponent("stores").path
        let snapshot = try KVStoreSnapshot(
            data: TestSupport.read(stores + "/" + id), meta: TestSupport.read(stores + "/" + id + ".crc"))
        let dump = try FixtureDump(id: id)
        #expect(snapshot.entries.count == dump.entries.count)
        let expected = Dictionary(uniqueKeysWithValues: dump.entries.map { ($0.key, $0.rawHex) })
        for entry in snapshot.entries {
            #expect(expected[entry.key] == TestHex.string(entry.payload))
        }
    }
}
