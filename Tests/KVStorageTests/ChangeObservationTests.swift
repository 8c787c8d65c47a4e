import CofferTestSupport
import Foundation
import Testing

@testable import KVStorage

/// `KVStore.changes(forKey:)`: an AsyncSequence of the changes made through the store and, in
/// multi-process mode, by other processes. No test waits a fixed time: each awaits the events.
@Suite("Change observation", .serialized)
struct ChangeObservationTests {
    static let directoryVariable = "KVSTORE_WATCH_CHILD_DIR"

    @Test("writes through the store are reported in order, with their kinds", .timeLimit(.minutes(1)))
    func ownWrites() async throws {
        let directory = try TestScratch.directory("changes").path
        defer { TestSupport.removeDirectory(directory) }
        let store = try KVStore(KVStoreConfiguration(directory: directory))
        var iterator = store.changes().makeAsyncIterator()
        try store.set("one", forKey: "a")
        try store.set(Int64(2), forKey: "b")
        try store.remove("a")
        try store.remove("never-set")
        try store.transaction { tx throws(KVStoreError) in try tx.set(Int64(1), forKey: "c") }
        try store.remove(["b", "c", "absent"])
        try store.compact()
        try store.set("again", forKey: "a")
        try store.clearAll()
        store.close()
        var seen: [KVStoreChange] = []
        while let change = await iterator.next() { seen.append(change) }
        #expect(seen == [
            KVStoreChange(key: "a", kind: .set, byOtherProcess: false),
            KVStoreChange(key: "b", kind: .set, byOtherProcess: false),
            KVStoreChange(key: "a", kind: .removed, byOtherProcess: false),
            KVStoreChange(key: "c", kind: .set, byOtherProcess: false),
            KVStoreChange(key: "b", kind: .removed, byOtherProcess: false),
            KVStoreChange(key: "c", kind: .removed, byOtherProcess: false),
            KVStoreChange(key: "a", kind: .set, byOtherProcess: false),
            KVStoreChange(key: nil, kind: .cleared, byOtherProcess: false),
        ], "closing the store ends the stream")
    }

    @Test("an observer of one key sees only that key and the changes to every key", .timeLimit(.minutes(1)))
    func oneKey() async throws {
        let directory = try TestScratch.directory("changes-key").path
        defer { TestSupport.removeDirectory(directory) }
        let store = try KVStore(KVStoreConfiguration(directory: directory))
        let stream = store.changes(forKey: "watched")
        try store.set("x", forKey: "other")
        try store.set("y", forKey: "watched")
        try store.set("z", forKey: "other")
        try store.clearAll()
        store.close()
        var seen: [KVStoreChange] = []
        for await change in stream { seen.append(change) }
        #expect(seen.map(\.key) == ["watched", nil])
        #expect(seen.map(\.kind) == [.set, .cleared])
    }

    @Test("a dropped stream is unregistered", .timeLimit(.minutes(1)))
    func droppedStream() async throws {
        let directory = try TestScratch.directory("changes-drop").path
        defer { TestSupport.removeDirectory(directory) }
        let store = try KVStore(KVStoreConfiguration(directory: directory))
        defer { store.close() }
        do {
            let stream = store.changes()
            try store.set("x", forKey: "k")
            var iterator = stream.makeAsyncIterator()
            #expect(await iterator.next()?.key == "k")
        }
        // The stream and its iterator are gone: its termination handler unregistered it.
        #expect(store.observers.remove(-1) == 0)
        try store.set("y", forKey: "k")
    }

    @Test("child: write keys for the watcher", .enabled(if: ChildProcess.environment(directoryVariable) != nil))
    func watchedWriter() throws {
        let directory = try #require(ChildProcess.environment(Self.directoryVariable))
        let store = try KVStore(KVStoreConfiguration(directory: directory, id: "watched", multiProcess: true))
        defer { store.close() }
        if ChildProcess.environment(Self.modeVariable) == "compact" {
            try store.compact()
            return
        }
        try store.set("from the child", forKey: "child")
        try store.set(Int64(7), forKey: "number")
        try store.remove("child")
    }

    static let modeVariable = "KVSTORE_WATCH_CHILD_MODE"

    static func runChild(_ directory: String, mode: String) throws {
        let child = try ChildProcess.start(
            filter: "watchedWriter", environment: [Self.directoryVariable: directory, Self.modeVariable: mode])
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
    }

    @Test("another process's appends are seen key by key, its compaction as a reload", .timeLimit(.minutes(2)))
    func otherProcess() async throws {
        let directory = try TestScratch.directory("changes-mp").path
        defer { TestSupport.removeDirectory(directory) }
        let store = try KVStore(KVStoreConfiguration(directory: directory, id: "watched", multiProcess: true))
        defer { store.close() }
        try store.set("mine", forKey: "parent")
        var iterator = store.changes().makeAsyncIterator()

        try Self.runChild(directory, mode: "append")
        var seen: [KVStoreChange] = []
        while seen.count < 3, let change = await iterator.next() { seen.append(change) }
        #expect(seen == [
            KVStoreChange(key: "child", kind: .set, byOtherProcess: true),
            KVStoreChange(key: "number", kind: .set, byOtherProcess: true),
            KVStoreChange(key: "child", kind: .removed, byOtherProcess: true),
        ])

        try Self.runChild(directory, mode: "compact")
        #expect(await iterator.next() == KVStoreChange(key: nil, kind: .reloaded, byOtherProcess: true))
        #expect(try store.int64(forKey: "number") == 7)
        #expect(try store.string(forKey: "child") == nil)
        #expect(try store.string(forKey: "parent") == "mine")
    }

    /// Issue 38: the stream of `changes` went on silently when the files were damaged under it.
    @Test("checkedChanges ends with the damage when the data file is overwritten or truncated under the store",
          .timeLimit(.minutes(1)), arguments: [false, true])
    func checkedChangesEndOnDamage(truncate: Bool) async throws {
        let directory = try TestScratch.directory("changes").path
        defer { TestSupport.removeDirectory(directory) }
        let configuration = KVStoreConfiguration(directory: directory, id: "watched", multiProcess: true)
        let writer = try KVStore(configuration)
        for number in 0..<10 { try writer.set("value \(number)", forKey: "k\(number)") }
        writer.close()
        let store = try KVStore(configuration)
        defer { store.close() }
        let stream = store.checkedChanges(pollInterval: .milliseconds(5))
        // In place, as a program that goes around the store would (no rename, no O_TRUNC).
        let handle = try #require(FileHandle(forUpdatingAtPath: configuration.dataPath))
        if truncate {
            try handle.truncate(atOffset: 30)
        } else {
            try handle.seek(toOffset: 12)
            try handle.write(contentsOf: Data([0x5A, 0x5A, 0x5A, 0x5A]))
        }
        try handle.close()
        do {
            for try await change in stream { Issue.record("unexpected change \(change)") }
            Issue.record("the stream ended without an error")
        } catch let error as KVStoreError {
            #expect(error.code == .damaged, "\(error)")
            #expect(error.description.contains(configuration.dataPath), "\(error)")
            if !truncate { #expect(error.damage.map { "\($0)" }?.contains("CRC mismatch") == true, "\(error)") }
        }
    }
}
