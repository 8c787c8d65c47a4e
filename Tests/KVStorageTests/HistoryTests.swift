import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import KVStorage

/// `KVStore.history()`: every entry of the log in file order, marked live, superseded, deleted or
/// expired.
@Suite("Log history")
struct HistoryTests {
    /// The history's entries cover the data region exactly: after the placeholder, each entry starts
    /// where the previous one ended, and the last ends at the region's end.
    static func expectContiguous(_ history: [KVStoreHistoryEntry], actualSize: Int, placeholder: Int = 4) {
        var expected = 4 + placeholder
        for entry in history {
            #expect(entry.offset == expected, "entry \(entry.key) at \(entry.offset), expected \(expected)")
            expected = entry.offset + entry.size
        }
        if !history.isEmpty { #expect(expected == 4 + actualSize) }
    }

    @Test("overwrites, deletes, re-sets and expired keys get their states, in file order")
    func synthetic() throws {
        let directory = try TestScratch.directory("history").path
        defer { TestSupport.removeDirectory(directory) }
        let clock = TestClock(1_000)
        let store = try KVStore(KVStoreConfiguration(directory: directory, clock: clock.function))
        defer { store.close() }
        try store.enableExpiration()
        try store.set("one", forKey: "a")
        try store.set("two", forKey: "a")
        try store.set(Int64(5), forKey: "b")
        try store.remove("b")
        try store.set(true, forKey: "c", expireAfter: 5)
        try store.set("x", forKey: "d")
        try store.remove("d")
        try store.set("y", forKey: "d")
        try store.set(Int32(-1), forKey: "e", expireAfter: 100)
        clock.advance(10)

        let history = try store.history()
        let expected: [(String, KVStoreHistoryEntry.State, Bool)] = [
            ("a", .superseded, false), ("a", .live, false), ("b", .deleted, false), ("b", .deleted, true),
            ("c", .expired, false), ("d", .deleted, false), ("d", .deleted, true), ("d", .live, false),
            ("e", .live, false),
        ]
        #expect(history.map(\.key) == expected.map(\.0))
        #expect(history.map(\.state) == expected.map(\.1))
        #expect(history.map(\.isTombstone) == expected.map(\.2))
        #expect(history[0].payload == KVStoreValueCodec.encode("one"))
        #expect(history[1].payload == KVStoreValueCodec.encode("two"))
        #expect(history[3].payload.isEmpty && history[3].expireAt == nil)
        #expect(history[4].expireAt == 1_005)
        #expect(history[8].expireAt == 1_100 && history[8].payload == KVStoreValueCodec.encode(Int32(-1)))
        Self.expectContiguous(history, actualSize: try store.statistics().actualSize)
        // The live entries are exactly what the store reads.
        #expect(Set(history.filter { $0.state == .live }.map(\.key)) == Set(try store.allKeys()))

        // Compaction drops everything but the live values.
        try store.compact()
        let compacted = try store.history()
        #expect(compacted.map(\.key) == ["a", "d", "e"])
        #expect(compacted.allSatisfy { $0.state == .live })
    }

    @Test("an empty or new store has no history")
    func empty() throws {
        let directory = try MMKVFixtures.copyStore("empty")
        defer { TestSupport.removeDirectory(directory) }
        let store = try KVStore(KVStoreConfiguration(directory: directory, id: "empty", accessMode: .readOnly))
        defer { store.close() }
        #expect(try store.history().isEmpty)
    }

    static let fixtures: [(id: String, key: String?, cipher: KVStoreConfiguration.Cipher)] = [
        ("plain", nil, .aes128), ("aes128", "coffer-fixture-key", .aes128),
        ("aes256", "coffer-fixture-aes256-key-32byte", .aes256), ("expire", nil, .aes128),
        ("deleted", nil, .aes128), ("compacted", nil, .aes128), ("onekey", nil, .aes128), ("large", nil, .aes128),
    ]

    @Test("MMKV fixtures: the live entries are exactly MMKV's dump, and every byte of the log is accounted for",
          arguments: fixtures.map(\.id))
    func fixture(id: String) throws {
        let spec = try #require(Self.fixtures.first { $0.id == id })
        let dump = try FixtureDump(id: id)
        let directory = try MMKVFixtures.copyStore(id)
        defer { TestSupport.removeDirectory(directory) }
        // A clock before every expire-at time of the expire fixture, so its keys are live.
        let clock = TestClock(1_700_000_000)
        let store = try KVStore(KVStoreConfiguration(
            directory: directory, id: id, cryptKey: spec.key.map { SecureBytes(Array($0.utf8)) }, cipher: spec.cipher,
            accessMode: .readOnly, clock: clock.function))
        defer { store.close() }
        let history = try store.history()
        let live = history.filter { $0.state == .live }
        #expect(live.count == dump.entries.count)
        let byKey = Dictionary(live.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byKey.count == live.count, "at most one live entry per key")
        for entry in dump.entries {
            #expect(byKey[entry.key].map { TestHex.string($0.payload) } == entry.rawHex, "\(id): \(entry.key)")
            if let expireAt = entry.expireAt { #expect(byKey[entry.key]?.expireAt == expireAt) }
        }
        if id != "onekey" {
            // MMKV's single-key override path may leave a 1..5-byte placeholder of another size.
            Self.expectContiguous(history, actualSize: try store.statistics().actualSize)
        }
        if id == "expire" {
            clock.advance(UInt32.max - 1_700_000_000)
            #expect(try store.history().allSatisfy { $0.state == .expired })
        }
    }

    @Test("the deleted fixture keeps its overwritten value and its tombstone after MMKV's write-back")
    func deletedFixtureHistory() throws {
        let directory = try MMKVFixtures.copyStore("deleted")
        defer { TestSupport.removeDirectory(directory) }
        let store = try KVStore(KVStoreConfiguration(directory: directory, id: "deleted", accessMode: .readOnly))
        defer { store.close() }
        let history = try store.history()
        let superseded = history.filter { $0.state == .superseded }
        let tombstones = history.filter(\.isTombstone)
        #expect(superseded.count == 1, "the overwrite left one older value")
        #expect(tombstones.count == 1, "the tombstone after the write-back")
        for old in superseded {
            // The newer value of the same key comes later and is live.
            #expect(history.contains { $0.key == old.key && $0.offset > old.offset && $0.state == .live })
        }
        for tombstone in tombstones {
            #expect(tombstone.state == .deleted)
            #expect(!(try store.contains(tombstone.key)))
            #expect(history.contains { $0.key == tombstone.key && $0.offset < tombstone.offset && $0.state == .deleted })
        }
        #expect(history.filter { $0.state == .live }.count == 95)
    }
}
