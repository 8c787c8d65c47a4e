import CofferTestSupport
import Foundation
import Synchronization
import Testing

@testable import KVStorage

/// A clock the tests move by hand.
final class TestClock: Sendable {
    let seconds: Atomic<UInt32>
    init(_ start: UInt32) { seconds = Atomic(start) }
    func advance(_ delta: UInt32) { seconds.add(delta, ordering: .relaxed) }
    var function: @Sendable () -> UInt32 { { [self] in seconds.load(ordering: .relaxed) } }
}

@Suite("Key expiration")
struct ExpirationTests {
    @Test("the MMKV expire fixture: trailers, live before expiry, absent after")
    func expireFixture() throws {
        let dump = try FixtureDump(id: "expire")
        let expireAt = try #require(dump.entries.first?.expireAt)
        let directory = try MMKVFixtures.copyStore("expire")
        defer { TestSupport.removeDirectory(directory) }
        let clock = TestClock(expireAt - 100)
        let configuration = KVStoreConfiguration(directory: directory, id: "expire", clock: clock.function)
        let store = try KVStore(configuration)
        #expect(try store.statistics().expirationEnabled)
        try FixtureReadTests.compare(store, with: dump)
        for entry in dump.entries {
            #expect(try store.expireAt(forKey: entry.key) == entry.expireAt)
        }
        clock.advance(100)
        #expect(try store.count() == 0)
        #expect(try store.allKeys().isEmpty)
        #expect(try store.int32(forKey: dump.entries[0].key) == nil)
        #expect(try store.statistics().expiredEntries == dump.entries.count)
        // Compaction drops the expired keys for good.
        try store.compact()
        let statistics = try store.statistics()
        #expect(statistics.actualSize == 4)
        #expect(statistics.expirationEnabled)
        store.close()
        try WriteTests.checkCompatibleFiles(directory, "expire")
        let meta = try WriteTests.meta(directory, "expire")
        #expect(meta.flags & 1 == 1)
    }

    @Test("per-key durations, the default duration and never-expiring values")
    func durations() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { TestSupport.removeDirectory(directory) }
        let clock = TestClock(1_700_000_000)
        let configuration = KVStoreConfiguration(directory: directory, defaultExpiration: 60, clock: clock.function)
        let store = try KVStore(configuration)
        try store.set("kept", forKey: "before")
        try store.enableExpiration()
        #expect(try store.expireAt(forKey: "before") == 0, "existing values never expire when enabled with 0")
        try store.set("short", forKey: "short", expireAfter: 10)
        try store.set("default", forKey: "default")
        try store.set("forever", forKey: "forever", expireAfter: 0)
        #expect(try store.expireAt(forKey: "short") == 1_700_000_010)
        #expect(try store.expireAt(forKey: "default") == 1_700_000_060)
        // The payload is followed by the trailer inside the value length.
        #expect(try store.rawValue(forKey: "short") == KVStoreValueCodec.encode("short"))
        clock.advance(10)
        #expect(try store.string(forKey: "short") == nil)
        #expect(try store.string(forKey: "default") == "default")
        store.close()

        let reopened = try KVStore(configuration)
        #expect(try reopened.count() == 3)
        clock.advance(50)
        #expect(Set(try reopened.allKeys()) == ["before", "forever"])
        try reopened.disableExpiration()
        #expect(try reopened.statistics().expirationEnabled == false)
        #expect(try reopened.string(forKey: "forever") == "forever")
        #expect(try reopened.rawValue(forKey: "before") == KVStoreValueCodec.encode("kept"))
        reopened.close()
        let meta = try WriteTests.meta(directory)
        #expect(meta.flags & 1 == 0)
        try WriteTests.checkCompatibleFiles(directory)
    }

    @Test("enabling with a duration stamps every existing value")
    func enableWithDuration() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { TestSupport.removeDirectory(directory) }
        let clock = TestClock(1_000)
        let store = try KVStore(KVStoreConfiguration(directory: directory, clock: clock.function))
        defer { store.close() }
        for number in 0..<10 { try store.set(Int64(number), forKey: "k\(number)") }
        try store.enableExpiration(existingValuesExpireAfter: 30)
        #expect(try store.expireAt(forKey: "k3") == 1_030)
        clock.advance(30)
        #expect(try store.count() == 0)
    }
}
