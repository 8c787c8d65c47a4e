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
}
