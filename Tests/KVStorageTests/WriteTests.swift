import CofferErrors
import CofferTestSupport
import Foundation
import Testing

@testable import KVStorage

@Suite("Writing, growth, compaction and reopening")
struct WriteTests {
    /// Reads the raw meta fields of a store's `.crc` file.
    static func meta(_ directory: String, _ id: String = "mmkv.default") throws -> MetaInfo {
        let bytes = try TestSupport.read(directory + "/" + id + ".crc")
        return bytes.withUnsafeBytes { MetaInfo(bytes: $0) }
    }

    /// Checks the MMKV-FORMAT §10 writer rules on a closed store's files; `encrypted` for a store
    /// whose data region is ciphertext.
    static func checkCompatibleFiles(_ directory: String, _ id: String = "mmkv.default", encrypted: Bool = false) throws {
        let data = try TestSupport.read(directory + "/" + id)
        let crcFile = try TestSupport.read(directory + "/" + id + ".crc")
        let info = crcFile.withUnsafeBytes { MetaInfo(bytes: $0) }
        #expect(data.count % 4096 == 0 && data.count >= 4096)
        #expect(crcFile.count == 4096)
        #expect(info.version == 4)
        #expect(info.sequence >= 1)
        #expect(!info.hasPendingCommit)
        let size = Int(info.actualSize)
        #expect(size + 4 <= data.count)
        let header = UInt32(data[0]) | UInt32(data[1]) << 8 | UInt32(data[2]) << 16 | UInt32(data[3]) << 24
        #expect(Int(header) == size, "header = actual size")
        let crc = data.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[4..<(4 + size)])) }
        #expect(crc == info.crc)
        if size >= 4 && !encrypted {
            // The placeholder (MMKV-FORMAT §2.2): a 4-byte varint in [2^21, 2^28) (plain stores
            // only: encrypted ones are ciphertext).
            let placeholder = data[4..<8]
            #expect(placeholder.prefix(3).allSatisfy { $0 & 0x80 != 0 } && placeholder.last! & 0x80 == 0, "the placeholder is a 4-byte varint")
            let value = placeholder.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element & 0x7F) << (7 * $1.offset) }
            #expect(StoreCore.placeholderRange.contains(value), "the placeholder \(value) lies in [2^21, 2^28)")
        }
    }

    @Test("the zlib CRC-32 check value")
    func crcCheckValue() {
        let bytes = Array("123456789".utf8)
        #expect(bytes.withUnsafeBytes { CRC32.checksum($0) } == 0xCBF4_3926)
        let split = bytes.withUnsafeBytes { raw in
            CRC32.update(CRC32.update(0, raw.baseAddress!, count: 4), raw.baseAddress! + 4, count: 5)
        }
        #expect(split == 0xCBF4_3926)
    }

    @Test("every type round-trips and survives a reopen")
    func typedRoundTrip() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { TestSupport.removeDirectory(directory) }
        let configuration = KVStoreConfiguration(directory: directory)
        do {
            let store = try KVStore(configuration)
            try store.set(true, forKey: "bool")
            try store.set(Int32.min, forKey: "i32")
            try store.set(UInt32.max, forKey: "u32")
            try store.set(Int64.min, forKey: "i64")
            try store.set(UInt64.max, forKey: "u64")
            try store.set(Float(-0.75), forKey: "f32")
            try store.set(Double.pi, forKey: "f64")
            try store.set("héllo", forKey: "str")
            try store.set("", forKey: "empty")
            try store.set([UInt8]([0, 1, 2, 255]), forKey: "bytes")
            try store.set(["a", "", "ccc"], forKey: "vec")
            #expect(try store.count() == 11)
            store.close()
        }
        try Self.checkCompatibleFiles(directory)
        let store = try KVStore(configuration)
        defer { store.close() }
        #expect(try store.bool(forKey: "bool") == true)
        #expect(try store.int32(forKey: "i32") == Int32.min)
        #expect(try store.uint32(forKey: "u32") == UInt32.max)
        #expect(try store.int64(forKey: "i64") == Int64.min)
        #expect(try store.uint64(forKey: "u64") == UInt64.max)
        #expect(try store.float(forKey: "f32") == -0.75)
        #expect(try store.double(forKey: "f64") == Double.pi)
        #expect(try store.string(forKey: "str") == "héllo")
        #expect(try store.string(forKey: "empty") == "")
        #expect(try store.bytes(forKey: "bytes") == [0, 1, 2, 255])
        #expect(try store.strings(forKey: "vec") == ["a", "", "ccc"])
        #expect(try store.rawValue(forKey: "i32")?.count == 10)
        let info = try Self.meta(directory)
        #expect(info.sequence == 1)
        #expect(info.lastConfirmedSize == 4, "the first insert confirms only the placeholder, as MMKV")
    }

    @Test("overwrite and tombstone: last write wins, the log grows")
    func overwriteAndRemove() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { TestSupport.removeDirectory(directory) }
        let configuration = KVStoreConfiguration(directory: directory)
        let store = try KVStore(configuration)
        try store.set(Int64(1), forKey: "k")
        try store.set(Int64(2), forKey: "k")
        try store.set("x", forKey: "gone")
        try store.remove("gone")
        try store.remove("never existed")
        var statistics = try store.statistics()
        #expect(statistics.liveEntries == 1)
        #expect(statistics.deadEntries == 3)
        #expect(statistics.crcValid)
        // Entry bytes: 01 'k' 01 01 | 01 'k' 01 02 | 04 "gone" 02 01 78 | 04 "gone" 00
        #expect(statistics.actualSize == 4 + 4 + 4 + 8 + 6)
        store.close()
        try Self.checkCompatibleFiles(directory)
        let reopened = try KVStore(configuration)
        #expect(try reopened.int64(forKey: "k") == 2)
        #expect(try reopened.contains("gone") == false)
        try reopened.compact()
        statistics = try reopened.statistics()
        #expect(statistics.deadEntries == 0)
        #expect(statistics.actualSize == 4 + 4)
        #expect(statistics.sequence == 2)
        #expect(try reopened.int64(forKey: "k") == 2)
        reopened.close()
        try Self.checkCompatibleFiles(directory)
        let info = try Self.meta(directory)
        #expect(info.lastConfirmedSize == info.actualSize && info.lastConfirmedCRC == info.crc)
    }

    @Test("growth keeps every value and the file a page multiple")
    func growth() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { TestSupport.removeDirectory(directory) }
        let configuration = KVStoreConfiguration(directory: directory, id: "grow")
        let store = try KVStore(configuration)
        for number in 0..<5000 {
            try store.set(Int64(number) * 1_000_003, forKey: "key_\(number)")
            try store.set("value number \(number)", forKey: "s_\(number)")
        }
        let statistics = try store.statistics()
        #expect(statistics.fileSize > 4096)
        #expect(statistics.fileSize % 4096 == 0)
        #expect(statistics.liveEntries == 10_000)
        store.close()
        try Self.checkCompatibleFiles(directory, "grow")
        let reopened = try KVStore(configuration)
        defer { reopened.close() }
        for number in stride(from: 0, to: 5000, by: 7) {
            #expect(try reopened.int64(forKey: "key_\(number)") == Int64(number) * 1_000_003)
            #expect(try reopened.string(forKey: "s_\(number)") == "value number \(number)")
        }
    }

    @Test("overwriting the same keys compacts instead of growing forever")
    func overwriteCompacts() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { TestSupport.removeDirectory(directory) }
        let store = try KVStore(KVStoreConfiguration(directory: directory))
        defer { store.close() }
        for round in 0..<2000 {
            for key in 0..<10 { try store.set(Int64(round * 10 + key), forKey: "counter_\(key)") }
        }
        let statistics = try store.statistics()
        #expect(statistics.fileSize <= StoreCore.compactionThreshold)
        #expect(statistics.sequence > 1)
        for key in 0..<10 { #expect(try store.int64(forKey: "counter_\(key)") == Int64(1999 * 10 + key)) }
    }

    @Test("remove several keys, clearAll and trim")
    func removeSeveralClearAllTrim() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { TestSupport.removeDirectory(directory) }
        let configuration = KVStoreConfiguration(directory: directory)
        let store = try KVStore(configuration)
        for number in 0..<3000 { try store.set("value \(number)", forKey: "k\(number)") }
        let before = try store.statistics()
        try store.remove(["k1", "k2", "missing"])
        var statistics = try store.statistics()
        #expect(statistics.liveEntries == 2998)
        #expect(statistics.deadEntries == 0, "a multi-key removal is a write-back without tombstones")
        #expect(statistics.sequence == before.sequence + 1)
        #expect(try store.string(forKey: "k1") == nil)
        for number in 3..<3000 { try store.remove("k\(number)") }
        try store.trim()
        statistics = try store.statistics()
        #expect(statistics.fileSize == 4096)
        #expect(try store.allKeys() == ["k0"])
        try store.set(Int32(5), forKey: "after")
        try store.clearAll()
        statistics = try store.statistics()
        #expect(statistics.liveEntries == 0)
        #expect(statistics.fileSize == 4096)
        store.close()
        try Self.checkCompatibleFiles(directory)
        let reopened = try KVStore(configuration)
        defer { reopened.close() }
        #expect(try reopened.count() == 0)
        try reopened.set("again", forKey: "k")
        #expect(try reopened.string(forKey: "k") == "again")
    }

    @Test("appending to an MMKV-written store, then reopening")
    func appendToFixture() throws {
        let directory = try MMKVFixtures.copyStore("plain")
        defer { TestSupport.removeDirectory(directory) }
        let configuration = KVStoreConfiguration(directory: directory, id: "plain")
        let store = try KVStore(configuration)
        try store.set("new", forKey: "coffer")
        try store.set(Int32(-7), forKey: "i32_0")
        store.close()
        try Self.checkCompatibleFiles(directory, "plain")
        let reopened = try KVStore(configuration)
        defer { reopened.close() }
        #expect(try reopened.count() == 211)
        #expect(try reopened.string(forKey: "coffer") == "new")
        #expect(try reopened.int32(forKey: "i32_0") == -7)
        #expect(try reopened.strings(forKey: "vec_strings") == ["a", "bb", "ccc"])
    }

    @Test("keys are validated, one instance per store, read-only refuses writes")
    func validation() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { TestSupport.removeDirectory(directory) }
        let store = try KVStore(KVStoreConfiguration(directory: directory))
        #expect(throws: KVStoreError(.invalidKey, "")) { try store.set(1 as Int32, forKey: "") }
        #expect(throws: KVStoreError(.invalidKey, "")) {
            try store.set(1 as Int32, forKey: String(repeating: "k", count: 65_532))
        }
        #expect(throws: KVStoreError(.alreadyOpen, "")) { _ = try KVStore(KVStoreConfiguration(directory: directory + "/")) }
        #expect(throws: KVStoreError(.expirationDisabled, "")) { try store.set(true, forKey: "k", expireAfter: 5) }
        try store.set(true, forKey: "k")
        store.close()
        #expect(throws: KVStoreError(.closed, "")) { try store.count() }
        let readOnly = try KVStore(KVStoreConfiguration(directory: directory, accessMode: .readOnly))
        defer { readOnly.close() }
        #expect(try readOnly.bool(forKey: "k") == true)
        #expect(throws: KVStoreError(.readOnly, "")) { try readOnly.set(false, forKey: "k") }
        #expect(throws: KVStoreError(.notFound, "")) {
            _ = try KVStore(KVStoreConfiguration(directory: directory, id: "missing", accessMode: .readOnly))
        }
    }

    @Test("files are created with mode 0600; special-character ids use MMKV's MD5 name")
    func fileModeAndNames() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { TestSupport.removeDirectory(directory) }
        let configuration = KVStoreConfiguration(directory: directory, id: "a/b")
        #expect(configuration.dataPath == directory + "/specialCharacter/" + "a7e86136543b019d72468ceebf71fb8e")
        let plain = try KVStore(KVStoreConfiguration(directory: directory))
        try plain.set(1 as Int32, forKey: "k")
        plain.close()
        for name in ["mmkv.default", "mmkv.default.crc"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + name)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
        }
    }

    @Test("import, backup and restore")
    func importBackupRestore() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { TestSupport.removeDirectory(directory) }
        let source = try KVStore(KVStoreConfiguration(directory: directory, id: "source"))
        let target = try KVStore(KVStoreConfiguration(directory: directory, id: "target"))
        defer { source.close(); target.close() }
        try source.set("one", forKey: "a")
        try source.set(Int64(2), forKey: "b")
        try target.set("old", forKey: "a")
        #expect(try target.importEntries(from: source) == 2)
        #expect(try target.string(forKey: "a") == "one")
        #expect(try target.int64(forKey: "b") == 2)

        let backupDirectory = directory + "/backup"
        try source.backup(toDirectory: backupDirectory)
        try Self.checkCompatibleFiles(backupDirectory, "source")
        try source.set("changed", forKey: "a")
        try source.remove("b")
        try source.restore(fromDirectory: backupDirectory)
        #expect(try source.string(forKey: "a") == "one")
        #expect(try source.int64(forKey: "b") == 2)
    }
}

@Suite("Sharing one instance between threads")
struct ThreadTests {
    @Test("8 threads × 1,000 transactions and reads on one instance lose no update")
    func concurrentIncrements() async throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { TestSupport.removeDirectory(directory) }
        let store = try KVStore(KVStoreConfiguration(directory: directory))
        defer { store.close() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for iteration in 0..<1_000 {
                        try store.transaction { tx throws(KVStoreError) in
                            try tx.set((tx.int64(forKey: "counter") ?? 0) + 1, forKey: "counter")
                        }
                        try store.set("t\(worker)-\(iteration)", forKey: "thread_\(worker)")
                        _ = try store.string(forKey: "thread_\((worker + 1) % 8)")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try store.int64(forKey: "counter") == 8_000)
        for worker in 0..<8 { #expect(try store.string(forKey: "thread_\(worker)") == "t\(worker)-999") }
    }
}

@Suite("Instance registry")
struct RegistryTests {
    @Test("closing, reopening and releasing the closed instance keeps the new one registered")
    func closeThenReopen() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { TestSupport.removeDirectory(directory) }
        let configuration = KVStoreConfiguration(directory: directory)
        var first: KVStore? = try KVStore(configuration)
        first?.close()
        let second = try KVStore(configuration)
        defer { second.close() }
        first = nil
        #expect(first == nil)
        #expect(throws: KVStoreError(.alreadyOpen, "")) { _ = try KVStore(configuration) }
    }
}
