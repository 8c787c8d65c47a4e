import CofferTestSupport
import Foundation
import Testing

@testable import KVStorage

/// Several processes share one store: flock on the `.crc` file plus change detection through
/// sequence, CRC and size. 4 processes × 10,000 read-modify-write increments of a shared counter
/// must lose no update.
@Suite("Multi-process sharing", .serialized)
struct MultiProcessTests {
    static let directoryVariable = "KVSTORE_MP_CHILD_DIR"
    static let workerVariable = "KVSTORE_MP_CHILD_WORKER"
    static let countVariable = "KVSTORE_MP_CHILD_COUNT"

    static func configuration(_ directory: String) -> KVStoreConfiguration {
        KVStoreConfiguration(directory: directory, id: "shared", multiProcess: true)
    }

    @Test("child: increment shared counters", .enabled(if: ChildProcess.environment(directoryVariable) != nil))
    func multiProcessWorker() throws {
        let directory = try #require(ChildProcess.environment(Self.directoryVariable))
        let worker = try #require(ChildProcess.environment(Self.workerVariable))
        let count = Int(ChildProcess.environment(Self.countVariable) ?? "") ?? 10_000
        let store = try KVStore(Self.configuration(directory))
        defer { store.close() }
        for iteration in 0..<count {
            try store.transaction { tx throws(KVStoreError) in
                try tx.set((tx.int64(forKey: "counter") ?? 0) + 1, forKey: "counter")
                try tx.set((tx.int64(forKey: "worker_" + worker) ?? 0) + 1, forKey: "worker_" + worker)
            }
            // Plain writes and reads between transactions, and an occasional explicit compaction.
            try store.set("worker \(worker) at \(iteration)", forKey: "last_" + worker)
            _ = try store.int64(forKey: "counter")
            if iteration % 2_500 == 1_000 { try store.compact() }
        }
    }

    @Test("4 processes × 10,000 increments lose no update")
    func sharedCounters() throws {
        let directory = try TestScratch.directory("multiprocess").path
        defer { TestSupport.removeDirectory(directory) }
        let workers = 4
        let count = 10_000
        let started = Date()
        let children = try (0..<workers).map { worker in
            try ChildProcess.start(
                filter: "multiProcessWorker",
                environment: [
                    Self.directoryVariable: directory, Self.workerVariable: String(worker), Self.countVariable: String(count),
                ])
        }
        for child in children {
            child.waitUntilExit()
            #expect(child.terminationStatus == 0, "a worker failed")
        }
        let elapsed = Date().timeIntervalSince(started)
        let store = try KVStore(Self.configuration(directory))
        defer { store.close() }
        #expect(try store.int64(forKey: "counter") == Int64(workers * count))
        for worker in 0..<workers {
            #expect(try store.int64(forKey: "worker_\(worker)") == Int64(count))
            #expect(try store.string(forKey: "last_\(worker)") == "worker \(worker) at \(count - 1)")
        }
        let statistics = try store.statistics()
        #expect(statistics.crcValid)
        print("multi-process: \(workers) × \(count) increments in \(String(format: "%.2f", elapsed)) s, sequence \(statistics.sequence)")
    }

    @Test("a second process sees appends, compactions and rekeys of the first")
    func changeDetection() throws {
        let directory = try TestScratch.directory("multiprocess").path
        defer { TestSupport.removeDirectory(directory) }
        // One process writes 200 increments; this process, holding the store open, sees them.
        let store = try KVStore(Self.configuration(directory))
        defer { store.close() }
        try store.set(Int64(0), forKey: "seen")
        let child = try ChildProcess.start(
            filter: "multiProcessWorker",
            environment: [Self.directoryVariable: directory, Self.workerVariable: "9", Self.countVariable: "200"])
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
        #expect(try store.int64(forKey: "counter") == 200)
        #expect(try store.int64(forKey: "worker_9") == 200)
        #expect(try store.string(forKey: "last_9") == "worker 9 at 199")
        #expect(try store.int64(forKey: "seen") == 0)
    }

    /// A writer that shortens the data file in place under the exclusive `flock`, as MMKV's `trim`
    /// and `clearAll` do: its new sequence is seen before anything of the cut-off part is touched.
    /// (No `fstat` per operation: the meta's sequence announces it, and the fault guard stands behind.)
    @Test("a writer that shortens the data file in place under the lock, as MMKV's trim, is seen before the next read")
    func inPlaceTruncationByAnotherWriter() throws {
        let directory = try TestScratch.directory("multiprocess").path
        defer { TestSupport.removeDirectory(directory) }
        let configuration = Self.configuration(directory)
        let store = try KVStore(configuration)
        defer { store.close() }
        let long = String(repeating: "v", count: 200)
        for number in 0..<1_000 { try store.set(long, forKey: "key-\(number)") }
        #expect(try store.string(forKey: "key-999") == long)
        let dataPath = configuration.dataPath
        let oldSize = try #require(FileManager.default.attributesOfItem(atPath: dataPath)[.size] as? Int)
        #expect(oldSize > 64 * 1024)

        // The image MMKV's write-back leaves: the placeholder varint, then one entry.
        var region: [UInt8] = [0xFF, 0xFF, 0xFF, 0x07]
        let key = Array("key-0".utf8)
        let payload = KVStoreValueCodec.encode("trimmed")
        region += [UInt8(key.count)] + key + [UInt8(payload.count)] + payload
        let crc = region.withUnsafeBytes { CRC32.checksum($0) }
        var image = withUnsafeBytes(of: UInt32(region.count).littleEndian) { Array($0) } + region
        image += [UInt8](repeating: 0, count: 4096 - image.count)
        var meta = try WriteTests.meta(directory, "shared")
        meta.sequence &+= 1
        meta.crc = crc
        meta.actualSize = UInt32(region.count)
        meta.lastConfirmedSize = UInt32(region.count)
        meta.lastConfirmedCRC = crc

        let metaFD = open(configuration.metaPath, O_RDWR)
        let dataFD = open(dataPath, O_RDWR)
        #expect(metaFD >= 0 && dataFD >= 0)
        #expect(flock(metaFD, LOCK_EX) == 0)
        #expect(ftruncate(dataFD, 4096) == 0)
        #expect(image.withUnsafeBytes { pwrite(dataFD, $0.baseAddress, $0.count, 0) } == 4096)
        #expect(meta.bytes.withUnsafeBytes { pwrite(metaFD, $0.baseAddress, $0.count, 0) } == MetaInfo.size)
        #expect(flock(metaFD, LOCK_UN) == 0)
        close(dataFD)
        close(metaFD)

        // key-999 lay in the cut-off part: reading it through the old mapping would be SIGBUS.
        #expect(try store.string(forKey: "key-999") == nil)
        #expect(try store.string(forKey: "key-0") == "trimmed")
        #expect(try store.count() == 1)
        try store.set("after the trim", forKey: "new")
        #expect(try store.string(forKey: "new") == "after the trim")
        #expect(try store.statistics().crcValid)
    }
}
