import CofferTestSupport
import Foundation
import Synchronization
import Testing

@testable import KVStorage

#if canImport(Glibc)
import Glibc
#endif

/// `.system` durability: each write returns after its bytes and meta are flushed, flushes are
/// shared, and the store survives SIGKILL like `.process`.
@Suite("Durability levels", .serialized)
struct DurabilityTests {
    static let directoryVariable = "KVSTORE_DURABILITY_CHILD_DIR"
    static let levelVariable = "KVSTORE_DURABILITY_CHILD_LEVEL"
    static let writes = 200

    static func configuration(_ directory: String, _ level: KVStoreConfiguration.Durability) -> KVStoreConfiguration {
        var configuration = KVStoreConfiguration(directory: directory, id: "durable")
        configuration.durability = level
        return configuration
    }

    @Test("a .system write flushes before it returns; .process never flushes")
    func flushPerWrite() throws {
        let directory = try TestScratch.directory("durability").path
        defer { TestSupport.removeDirectory(directory) }
        let system = try KVStore(Self.configuration(directory, .system))
        for number in 0..<5 { try system.set(Int64(number), forKey: "k\(number)") }
        try system.remove("k0")
        #expect(system.flusher.flushCount == 6, "one flush per sequential write")
        system.close()
        let process = try KVStore(Self.configuration(directory, .process))
        defer { process.close() }
        try process.set("x", forKey: "k9")
        #expect(process.flusher.flushCount == 0)
        #expect(try process.int64(forKey: "k4") == 4)
    }

    @Test("one flush covers every write that took its ticket before the flush began")
    func sharedFlush() throws {
        let flusher = SyncFlusher()
        let first = flusher.recordWrite()
        let second = flusher.recordWrite()
        let third = flusher.recordWrite()
        let flushes = Mutex(0)
        let count = { () throws(KVStoreError) in flushes.withLock { $0 += 1 } }
        try flusher.waitUntilFlushed(second, flush: count)
        try flusher.waitUntilFlushed(first, flush: count)
        try flusher.waitUntilFlushed(third, flush: count)
        #expect(flushes.withLock { $0 } == 1, "the first flush covered all three writes")
        let fourth = flusher.recordWrite()
        try flusher.waitUntilFlushed(fourth, flush: count)
        #expect(flushes.withLock { $0 } == 2)
        #expect(flusher.flushCount == 2)
    }

    @Test("writes from several threads under .system all land, with at most one flush each")
    func concurrentWriters() async throws {
        let directory = try TestScratch.directory("durability-threads").path
        defer { TestSupport.removeDirectory(directory) }
        let store = try KVStore(Self.configuration(directory, .system))
        defer { store.close() }
        let threads = 4
        let perThread = 50
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    for number in 0..<perThread { try? store.set(Int64(number), forKey: "t\(thread)-\(number)") }
                }
            }
        }
        #expect(try store.count() == threads * perThread)
        #expect(store.flusher.flushCount >= 1 && store.flusher.flushCount <= threads * perThread)
    }

    @Test("a flush runs on duplicated descriptors, so the files may be closed while it is in flight")
    func flushOutlivesTheFiles() throws {
        let directory = try TestScratch.directory("durability-dup").path
        defer { TestSupport.removeDirectory(directory) }
        var target: SyncTarget
        do {
            let data = try MappedFile(path: directory + "/data", writable: true, minimumSize: 4096)
            let meta = try MappedFile(path: directory + "/data.crc", writable: true, minimumSize: 4096)
            data.bytes.baseAddress.map { UnsafeMutableRawPointer(mutating: $0).storeBytes(of: 0x2A, as: UInt8.self) }
            target = try SyncTarget(data: data, meta: meta)
            #expect(target.descriptors.count == 2)
            #expect(target.descriptors.allSatisfy { $0 != data.descriptor && $0 != meta.descriptor })
        }
        // Both mappings and their descriptors are gone; the duplicates still name the files.
        try target.flush()
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/data")).first == 0x2A)
    }

    @Test("child: write, then SIGKILL itself", .enabled(if: ChildProcess.environment(directoryVariable) != nil))
    func killedWriter() throws {
        let directory = try #require(ChildProcess.environment(Self.directoryVariable))
        let level: KVStoreConfiguration.Durability = ChildProcess.environment(Self.levelVariable) == "system" ? .system : .process
        let store = try KVStore(Self.configuration(directory, level))
        for number in 0..<Self.writes { try store.set("value \(number)", forKey: "k\(number)") }
        try store.remove("k0")
        // Every write above returned: die without closing anything.
        kill(getpid(), SIGKILL)
    }

    @Test("a store written with .system or .process survives SIGKILL with every acknowledged write",
          arguments: ["system", "process"])
    func survivesKill(level: String) throws {
        let directory = try TestScratch.directory("durability-kill").path
        defer { TestSupport.removeDirectory(directory) }
        let child = try ChildProcess.start(
            filter: "killedWriter", environment: [Self.directoryVariable: directory, Self.levelVariable: level])
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGKILL)
        let store = try KVStore(Self.configuration(directory, .process))
        defer { store.close() }
        #expect(try store.count() == Self.writes - 1)
        #expect(try store.string(forKey: "k0") == nil)
        for number in 1..<Self.writes { #expect(try store.string(forKey: "k\(number)") == "value \(number)") }
        #expect(try KVStore.verify(Self.configuration(directory, .process)).crcValid)
    }
}
