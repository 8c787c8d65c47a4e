import CofferErrors
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import KVStorage

/// `KVStore.salvage`: what still parses in a damaged store, written as a new valid store, for every
/// damage scenario of MMKV-FORMAT.md §5 and for structural damage; the damaged files never change.
@Suite("Salvage")
struct SalvageTests {
    /// SHA-256 of each file that exists, in order (absent files hash to nil).
    static func hashes(_ paths: [String]) throws -> [[UInt8]?] {
        try paths.map { path in
            FileManager.default.fileExists(atPath: path) ? Digest.hash(.sha256, try TestSupport.read(path)) : nil
        }
    }

    /// Salvages the store of `configuration` into a new directory, checking that the source files
    /// are byte-identical afterwards and that the copy is a sound store; returns the report and the
    /// salvaged store, opened.
    static func salvage(_ configuration: KVStoreConfiguration) throws -> (KVStoreSalvageReport, KVStore, String) {
        let paths = [configuration.dataPath, configuration.metaPath]
        let before = try hashes(paths)
        let target = try TestScratch.directory("salvaged").path
        let report = try KVStore.salvage(configuration, toDirectory: target)
        #expect(try hashes(paths) == before, "the damaged files are byte-identical after salvage")
        var copy = configuration
        copy.directory = target
        #expect(report.dataPath == copy.dataPath)
        #expect(try KVStore.verify(copy).liveEntries == report.liveKeys, "the salvaged store is sound")
        if configuration.cryptKey == nil { try WriteTests.checkCompatibleFiles(target, configuration.id) }
        return (report, try KVStore(copy), target)
    }

    /// Keys k0..k19 and flag hold "value N" and true (see `DamageTests.makeStore`).
    static func expectValues(_ store: KVStore, keys: some Sequence<Int>) throws {
        for number in keys { #expect(try store.string(forKey: "k\(number)") == "value \(number)", "k\(number)") }
    }

    @Test("scenario A: a corrupt value byte, no compaction: every entry parses and is kept as the bytes say")
    func scenarioA() throws {
        let (directory, configuration) = try DamageTests.makeStore()
        defer { TestSupport.removeDirectory(directory) }
        let data = try TestSupport.read(DamageTests.paths(directory).data)
        let offset = try #require(DamageTests.find(Array("value 5".utf8), in: data)) + 4
        try DamageTests.patch(DamageTests.paths(directory).data, at: offset) { $0 ^ 0x20 }
        let (report, store, target) = try Self.salvage(configuration)
        defer { store.close(); TestSupport.removeDirectory(target) }
        #expect(!report.crcMatches)
        #expect(report.damagedRanges.isEmpty)
        #expect(report.regionSource == "meta")
        #expect(report.liveKeys == 21)
        #expect(try store.string(forKey: "k5") == "valuE 5")
        #expect(report.uncertainKeys.count == 21, "the CRC fails and no damage explains it: any value may be wrong")
        #expect(!report.isComplete)
        try Self.expectValues(store, keys: [0, 4, 6, 19])
        #expect(try store.bool(forKey: "flag") == true)
    }

    @Test("scenarios B/C: damage inside a compacted region (last-confirmed state invalid too)")
    func scenarioBC() throws {
        let (directory, configuration) = try DamageTests.makeStore(compactAfter: 20)
        defer { TestSupport.removeDirectory(directory) }
        let data = try TestSupport.read(DamageTests.paths(directory).data)
        let offset = try #require(DamageTests.find(Array("value 3".utf8), in: data))
        try DamageTests.patch(DamageTests.paths(directory).data, at: offset) { $0 ^ 0x01 }
        let (report, store, target) = try Self.salvage(configuration)
        defer { store.close(); TestSupport.removeDirectory(target) }
        #expect(!report.crcMatches)
        #expect(report.liveKeys == 21)
        #expect(try store.string(forKey: "k3") == "walue 3")
        try Self.expectValues(store, keys: (0..<20).filter { $0 != 3 })
    }

    @Test("scenario D: the entry appended after a compaction no longer parses: the compacted keys are kept")
    func scenarioD() throws {
        let (directory, configuration) = try DamageTests.makeStore(compactAfter: 20)
        defer { TestSupport.removeDirectory(directory) }
        let data = try TestSupport.read(DamageTests.paths(directory).data)
        // The appended entry is `04 "flag" 01 01`: make its key length run past the end.
        let flag = try #require(DamageTests.find([4] + Array("flag".utf8) + [1, 1], in: data))
        try DamageTests.patch(DamageTests.paths(directory).data, at: flag) { _ in 0x7F }
        let (report, store, target) = try Self.salvage(configuration)
        defer { store.close(); TestSupport.removeDirectory(target) }
        #expect(report.damagedRanges.first?.lowerBound == flag)
        #expect(report.intactPrefixEnd == flag)
        #expect(report.liveKeys == 20)
        #expect(report.entries.allSatisfy { !$0.afterDamage })
        try Self.expectValues(store, keys: 0..<20)
        #expect(try store.bool(forKey: "flag") == nil)
    }

    @Test("scenario E: the meta claims more data than the file holds: the header bounds the region")
    func scenarioE() throws {
        let (directory, configuration) = try DamageTests.makeStore()
        defer { TestSupport.removeDirectory(directory) }
        try DamageTests.patchMeta(DamageTests.paths(directory).meta) { $0.actualSize = 1 << 30 }
        let (report, store, target) = try Self.salvage(configuration)
        defer { store.close(); TestSupport.removeDirectory(target) }
        #expect(report.regionSource == "header")
        #expect(report.liveKeys == 21)
        try Self.expectValues(store, keys: 0..<20)
    }

    @Test("scenario F: the .crc is missing and the header is 0 (an MMKV 2.4 file): the whole file is scanned")
    func scenarioF() throws {
        let (directory, configuration) = try DamageTests.makeStore()
        defer { TestSupport.removeDirectory(directory) }
        try DamageTests.zeroHeader(directory)
        try FileManager.default.removeItem(atPath: DamageTests.paths(directory).meta)
        let (report, store, target) = try Self.salvage(configuration)
        defer { store.close(); TestSupport.removeDirectory(target) }
        #expect(report.regionSource == "file")
        #expect(report.damagedRanges.isEmpty, "the zero-filled tail decodes as empty keys")
        #expect(report.liveKeys == 21)
        try Self.expectValues(store, keys: 0..<20)
    }

    @Test("scenario G: the .crc is missing, the header holds the size")
    func scenarioG() throws {
        let (directory, configuration) = try DamageTests.makeStore()
        defer { TestSupport.removeDirectory(directory) }
        try FileManager.default.removeItem(atPath: DamageTests.paths(directory).meta)
        let (report, store, target) = try Self.salvage(configuration)
        defer { store.close(); TestSupport.removeDirectory(target) }
        #expect(report.regionSource == "header")
        #expect(!report.crcMatches)
        #expect(report.liveKeys == 21)
    }

    @Test("a data file cut inside an entry: the entries before the cut are kept")
    func truncated() throws {
        let (directory, configuration) = try DamageTests.makeStore()
        defer { TestSupport.removeDirectory(directory) }
        let path = DamageTests.paths(directory).data
        let data = try TestSupport.read(path)
        let cut = try #require(DamageTests.find([3] + Array("k15".utf8), in: data)) + 6
        try TestSupport.write(Array(data.prefix(cut)), to: path)
        let (report, store, target) = try Self.salvage(configuration)
        defer { store.close(); TestSupport.removeDirectory(target) }
        #expect(report.regionSource == "file")
        #expect(report.liveKeys == 15)
        try Self.expectValues(store, keys: 0..<15)
        #expect(try store.string(forKey: "k15") == nil)
        #expect(report.lostKeys == ["k15"], "the cut entry's key still reads")
        #expect(report.recordedEnd > report.regionEnd)
        #expect(report.damagedRanges == [cut - 6..<report.recordedEnd], "the cut entry and the bytes the file lost")
    }

    @Test("a malformed entry in the middle: the prefix is kept and the later entries are found after it")
    func resynchronises() throws {
        let (directory, configuration) = try DamageTests.makeStore()
        defer { TestSupport.removeDirectory(directory) }
        let data = try TestSupport.read(DamageTests.paths(directory).data)
        let k10 = try #require(DamageTests.find([3] + Array("k10".utf8), in: data))
        try DamageTests.patch(DamageTests.paths(directory).data, at: k10) { _ in 0xC0 }
        let (report, store, target) = try Self.salvage(configuration)
        defer { store.close(); TestSupport.removeDirectory(target) }
        #expect(report.intactPrefixEnd == k10)
        #expect(report.damagedRanges.count == 1)
        let after = report.entries.filter(\.afterDamage).map(\.key)
        #expect(after == (11..<20).map { "k\($0)" } + ["flag"])
        #expect(report.entries.filter { !$0.afterDamage }.map(\.key) == (0..<10).map { "k\($0)" })
        #expect(report.liveKeys == 20)
        try Self.expectValues(store, keys: (0..<20).filter { $0 != 10 })
        #expect(try store.string(forKey: "k10") == nil)
        #expect(report.uncertainKeys == ["k11", "k9"], "the entries on either side of the damage are not confirmed")
    }

    @Test("an encrypted store with a damaged entry: CFB resynchronises and later entries are found")
    func encrypted() throws {
        let key = SecureBytes(Array("salvage-key".utf8))
        let (directory, configuration) = try DamageTests.makeStore(count: 20, cryptKey: key)
        defer { TestSupport.removeDirectory(directory) }
        // Damage a byte a third of the way in (ciphertext: offsets, not contents, are known).
        let size = Int(try WriteTests.meta(directory, DamageTests.id).actualSize)
        try DamageTests.patch(DamageTests.paths(directory).data, at: 4 + size / 3) { $0 ^ 0xFF }
        let (report, store, target) = try Self.salvage(configuration)
        defer { store.close(); TestSupport.removeDirectory(target) }
        #expect(!report.crcMatches)
        #expect(try store.string(forKey: "k0") == "value 0")
        #expect(try store.string(forKey: "k19") == "value 19")
        #expect(try store.bool(forKey: "flag") == true)
        #expect(report.liveKeys >= 17, "at most the entries in two garbled 16-byte blocks are lost")
    }

    @Test("a sound store salvages to a compacted copy; an existing store at the target is never replaced")
    func soundStoreAndExistingTarget() throws {
        let directory = try MMKVFixtures.copyStore("deleted")
        defer { TestSupport.removeDirectory(directory) }
        let configuration = KVStoreConfiguration(directory: directory, id: "deleted")
        let (report, store, target) = try Self.salvage(configuration)
        defer { store.close(); TestSupport.removeDirectory(target) }
        #expect(report.crcMatches)
        #expect(report.damagedRanges.isEmpty)
        #expect(report.isComplete)
        #expect(report.liveKeys == 95)
        #expect(try store.history().allSatisfy { $0.state == .live })
        let dump = try FixtureDump(id: "deleted")
        for entry in dump.entries { #expect(try store.rawValue(forKey: entry.key).map { TestHex.string($0) } == entry.rawHex) }

        let hashes = try Self.hashes([report.dataPath, report.dataPath + ".crc"])
        #expect(throws: KVStoreError(.invalidArgument, "")) { _ = try KVStore.salvage(configuration, toDirectory: target) }
        #expect(throws: KVStoreError(.invalidArgument, "")) { _ = try KVStore.salvage(configuration, toDirectory: directory) }
        #expect(try Self.hashes([report.dataPath, report.dataPath + ".crc"]) == hashes)
    }

    /// Issue 38: zeros in mid-region decoded as empty keys and the walk went on inside a value,
    /// keeping a key that swallowed the next entries (`-43-xxxx…\u{03}k44…`).
    @Test("zeros in the middle are damage, not empty keys: no entry swallows its successors")
    func zeroedMiddle() throws {
        let (directory, configuration) = try DamageTests.makeStore()
        defer { TestSupport.removeDirectory(directory) }
        let path = DamageTests.paths(directory).data
        var data = try TestSupport.read(path)
        let start = try #require(DamageTests.find(Array("value 7".utf8), in: data)) + 3
        for index in start..<start + 24 { data[index] = 0 }
        try TestSupport.write(data, to: path)
        let (report, store, target) = try Self.salvage(configuration)
        defer { store.close(); TestSupport.removeDirectory(target) }
        #expect(!report.isComplete)
        #expect(report.damagedRanges.count == 1)
        let range = try #require(report.damagedRanges.first)
        #expect(range.lowerBound <= start && range.upperBound >= start + 24, "\(range)")
        let keys = Set(try store.entries().map(\.key))
        #expect(keys.isSubset(of: Set((0..<20).map { "k\($0)" } + ["flag"])), "no garbage keys: \(keys)")
        #expect(report.uncertainKeys.contains("k7"), "its value ends in the zeros")
        try Self.expectValues(store, keys: (0..<20).filter { keys.contains("k\($0)") && !report.uncertainKeys.contains("k\($0)") })
        #expect(try store.bool(forKey: "flag") == true)
        #expect(keys.count >= 18, "24 bytes hold at most two of these 12-byte entries besides k7's tail")
    }

    @Test("the wrong crypt key: the CRC passes but nothing parses, so nothing is vouched for")
    func wrongCryptKey() throws {
        let (directory, configuration) = try DamageTests.makeStore(cryptKey: SecureBytes(Array("salvage-key".utf8)))
        defer { TestSupport.removeDirectory(directory) }
        var wrong = configuration
        wrong.cryptKey = SecureBytes(Array("not-the-key".utf8))
        let target = try TestScratch.directory("salvaged").path
        defer { TestSupport.removeDirectory(target) }
        let report = try KVStore.salvage(wrong, toDirectory: target)
        #expect(report.crcMatches)
        #expect(!report.damagedRanges.isEmpty)
        #expect(!report.isComplete)
        let confirmed = report.entries.filter { $0.uncertainty == nil }
        #expect(confirmed.isEmpty, "noise confirmed as entries: \(confirmed.map(\.key))")
    }
}
