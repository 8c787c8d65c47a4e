import CofferErrors
import CofferTestSupport
import Foundation
import Testing

@testable import KVStorage

/// One open is one load and one CRC pass over the data region, including the check-before-grow of
/// files that are not whole pages yet.
@Suite("Open cost: one load, one CRC pass")
struct OpenCostTests {
    /// A store with `count` string keys, closed.
    static func makeStore(_ directory: String, id: String = "cost", count: Int = 50) throws -> KVStoreConfiguration {
        let configuration = KVStoreConfiguration(directory: directory, id: id)
        let store = try KVStore(configuration)
        for number in 0..<count { try store.set("value \(number)", forKey: "key\(number)") }
        store.close()
        return configuration
    }

    @Test("a read-write open of an existing store loads once with one CRC pass")
    func readWriteOpen() throws {
        let directory = try TestScratch.directory("cost").path
        defer { TestSupport.removeDirectory(directory) }
        let configuration = try Self.makeStore(directory)
        let store = try KVStore(configuration)
        defer { store.close() }
        let counters = try store.loadCounters()
        #expect(counters.loads == 1)
        #expect(counters.crcPasses == 1)
        // Appends extend the CRC incrementally: no further pass.
        try store.set("more", forKey: "another")
        #expect(try store.loadCounters().crcPasses == 1)
        #expect(try store.count() == 51)
    }

    @Test("a store whose files are shorter than a page is checked and grown with one load")
    func shortFilesLoadOnce() throws {
        let directory = try TestScratch.directory("cost-short").path
        defer { TestSupport.removeDirectory(directory) }
        let configuration = try Self.makeStore(directory, count: 20)
        // Cut both files to what they hold (a writer that does not pad to pages, like MMKV on a
        // 16 KiB-page device copied to a 4 KiB one): the read-write open must grow them.
        let info = try WriteTests.meta(directory, "cost")
        let data = try TestSupport.read(configuration.dataPath)
        try TestSupport.write(Array(data.prefix(4 + Int(info.actualSize))), to: configuration.dataPath)
        let meta = try TestSupport.read(configuration.metaPath)
        try TestSupport.write(Array(meta.prefix(MetaInfo.size)), to: configuration.metaPath)

        let store = try KVStore(configuration)
        let counters = try store.loadCounters()
        #expect(counters.loads == 1)
        #expect(counters.crcPasses == 1)
        #expect(try store.count() == 20)
        try store.set("after growth", forKey: "new")
        store.close()
        try WriteTests.checkCompatibleFiles(directory, "cost")
        let reopened = try KVStore(configuration)
        defer { reopened.close() }
        #expect(try reopened.string(forKey: "new") == "after growth")
        #expect(try reopened.string(forKey: "key7") == "value 7")
    }

    @Test("a refused read-write open of a short damaged store changes nothing and creates nothing")
    func refusedShortStore() throws {
        let directory = try TestScratch.directory("cost-refused").path
        defer { TestSupport.removeDirectory(directory) }
        let configuration = try Self.makeStore(directory, count: 20)
        let data = try TestSupport.read(configuration.dataPath)
        // Truncated inside the data region, and the meta file gone: damaged (metaMissing).
        let truncated = Array(data.prefix(100))
        try TestSupport.write(truncated, to: configuration.dataPath)
        try FileManager.default.removeItem(atPath: configuration.metaPath)
        #expect(throws: KVStoreError(.damaged, "")) { _ = try KVStore(configuration) }
        #expect(try TestSupport.read(configuration.dataPath) == truncated)
        #expect(!FileManager.default.fileExists(atPath: configuration.metaPath), "no meta file was left behind")
    }

    @Test("verify loads once with one CRC pass and reports the CRC it checked")
    func verifyOnce() throws {
        let directory = try TestScratch.directory("cost-verify").path
        defer { TestSupport.removeDirectory(directory) }
        let configuration = try Self.makeStore(directory)
        var readOnly = configuration
        readOnly.accessMode = .readOnly
        let store = try KVStore(readOnly)
        defer { store.close() }
        let counters = try store.loadCounters()
        #expect(counters.loads == 1)
        #expect(counters.crcPasses == 1)
        #expect(try KVStore.verify(configuration).crcValid)
        // statistics() checks the files as they are now: one more pass, on request only.
        #expect(try store.statistics().crcValid)
        #expect(try store.loadCounters().crcPasses == 2)
    }
}
