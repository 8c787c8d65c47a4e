import CMappingGuard
import CofferTestSupport
import Foundation
import Synchronization
import Testing

@testable import KVStorage

#if canImport(Glibc)
import Glibc
#endif

/// A shared store's files cut short by another program while the store has them mapped: touching
/// a page past a file's new end raises `SIGBUS`. The fault guard answers it (a zero page, a mark),
/// and the operation fails with `damaged` instead of ending the process, with no `fstat` per
/// operation. A `SIGBUS` outside the store's mappings still ends the process.
@Suite("Shared stores whose files are cut short under them", .serialized, .timeLimit(.minutes(1)))
struct TruncationGuardTests {
    static let childVariable = "KVSTORE_GUARD_CHILD_FILE"

    /// A shared store of 2,000 keys (about 230 KiB: many pages), closed.
    static func filledStore(_ directory: String) throws -> KVStoreConfiguration {
        let configuration = KVStoreConfiguration(directory: directory, id: "cut", multiProcess: true)
        let store = try KVStore(configuration)
        for number in 0..<2_000 { try store.set(Self.value(number), forKey: "k\(number)") }
        store.close()
        return configuration
    }

    /// Runs `body` on a filled shared store (``filledStore(_:)``) opened again, in a scratch
    /// directory removed afterwards.
    static func withOpenFilledStore(_ body: (KVStoreConfiguration, KVStore) throws -> Void) throws {
        let directory = try TestScratch.directory("guard").path
        defer { TestSupport.removeDirectory(directory) }
        let configuration = try filledStore(directory)
        let store = try KVStore(configuration)
        defer { store.close() }
        try body(configuration, store)
    }

    static func value(_ number: Int) -> String { String(repeating: "v", count: 100) + "\(number)" }

    /// Cuts `path` to `size` bytes in place, as a program that goes around the store would.
    static func cut(_ path: String, to size: UInt64) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.truncate(atOffset: size)
        try handle.close()
    }

    static func isDamage(_ error: any Error, naming path: String) -> Bool {
        guard let error = error as? KVStoreError else { return false }
        return error.code == .damaged && error.description.contains(path)
    }

    @Test("a get after the data file is cut to 40 bytes fails with damaged, naming the file")
    func getAfterDataCut() throws {
        try Self.withOpenFilledStore { configuration, store in
            #expect(try store.string(forKey: "k1999") == Self.value(1999))
            let faultsBefore = coffer_mapping_guard_faults()
            try Self.cut(configuration.dataPath, to: 40)
            #expect { try store.string(forKey: "k1999") } throws: { Self.isDamage($0, naming: configuration.dataPath) }
            // The value's page lies past the new end: the guard answered the read's fault.
            #expect(coffer_mapping_guard_faults() > faultsBefore)
            // Still damaged on the next read, never an empty store.
            #expect { try store.string(forKey: "k0") } throws: { Self.isDamage($0, naming: configuration.dataPath) }
        }
    }

    @Test("a set after the data file is cut fails with damaged and is not acknowledged")
    func setAfterDataCut() throws {
        try Self.withOpenFilledStore { configuration, store in
            #expect(try store.count() == 2_000)
            // Cut inside the last entries: the append lands past the new end.
            let size = try #require(try FileManager.default.attributesOfItem(atPath: configuration.dataPath)[.size] as? UInt64)
            try Self.cut(configuration.dataPath, to: 4096)
            #expect(size > 8192)
            #expect { try store.set("new", forKey: "after the cut") } throws: { Self.isDamage($0, naming: configuration.dataPath) }
            store.close()
            // What the file holds now is judged on open, as damage.
            #expect { try KVStore(configuration) } throws: { Self.isDamage($0, naming: configuration.dataPath) }
        }
    }

    @Test("a get after the meta file is cut to nothing fails with damaged; no SIGBUS")
    func getAfterMetaCut() throws {
        try Self.withOpenFilledStore { configuration, store in
            #expect(try store.string(forKey: "k5") == Self.value(5))
            try Self.cut(configuration.metaPath, to: 0)
            // The store reloads from a meta file that says nothing: the loader's damage, naming the store.
            #expect { try store.string(forKey: "k5") } throws: { Self.isDamage($0, naming: configuration.dataPath) }
        }
    }

    @Test("reads from threads while another program cuts and restores the data file: right values or damaged")
    func concurrentCuts() async throws {
        let directory = try TestScratch.directory("guard").path
        defer { TestSupport.removeDirectory(directory) }
        let configuration = try Self.filledStore(directory)
        let original = try Data(contentsOf: URL(fileURLWithPath: configuration.dataPath))
        let store = try KVStore(configuration)
        defer { store.close() }
        let counts = Counts()
        let rounds = 10
        try await withThrowingTaskGroup(of: Void.self) { group in
            for reader in 0..<2 {
                group.addTask {
                    var round = 0
                    while !counts.done.load(ordering: .acquiring) {
                        round += 1
                        let number = (round * 7 + reader * 13) % 2_000
                        do {
                            let value = try store.string(forKey: "k\(number)")
                            // A value read is never one made of the guard's zeros.
                            #expect(value == Self.value(number))
                            counts.right.add(1, ordering: .relaxed)
                        } catch {
                            #expect((error as? KVStoreError)?.code == .damaged, "\(error)")
                            counts.damaged.add(1, ordering: .relaxed)
                        }
                        await Task.yield()
                    }
                }
            }
            group.addTask {
                defer { counts.done.store(true, ordering: .releasing) }
                // In place (no rename): the store's mapping is of this file. Each round waits
                // until a reader met the cut file, then until one read the whole file again.
                let handle = try #require(FileHandle(forUpdatingAtPath: configuration.dataPath))
                defer { try? handle.close() }
                for _ in 0..<rounds {
                    let damagedBefore = counts.damaged.load(ordering: .relaxed)
                    try handle.truncate(atOffset: 4096)
                    let cutDeadline = ContinuousClock.now + .seconds(10)
                    while counts.damaged.load(ordering: .relaxed) == damagedBefore, ContinuousClock.now < cutDeadline {
                        try await Task.sleep(for: .milliseconds(1))
                    }
                    let rightBefore = counts.right.load(ordering: .relaxed)
                    try handle.seek(toOffset: 0)
                    try handle.write(contentsOf: original)
                    let wholeDeadline = ContinuousClock.now + .seconds(10)
                    while counts.right.load(ordering: .relaxed) == rightBefore, ContinuousClock.now < wholeDeadline {
                        try await Task.sleep(for: .milliseconds(1))
                    }
                }
            }
            try await group.waitForAll()
        }
        // Every cut was met as damage, and every restore was read whole again.
        #expect(counts.damaged.load(ordering: .relaxed) >= rounds)
        #expect(counts.right.load(ordering: .relaxed) >= rounds)
        for number in stride(from: 0, to: 2_000, by: 97) { #expect(try store.string(forKey: "k\(number)") == Self.value(number)) }
    }

    @Test("child: a SIGBUS outside the store's mappings", .enabled(if: ChildProcess.environment(childVariable) != nil))
    func childFaultOutside() throws {
        let path = try #require(ChildProcess.environment(Self.childVariable))
        let directory = path + ".store"
        // A shared store is open: the guard is installed.
        let store = try KVStore(KVStoreConfiguration(directory: directory, id: "open", multiProcess: true))
        try store.set("x", forKey: "x")
        let fd = open(path, O_RDWR | O_CREAT, 0o600)
        #expect(fd >= 0)
        #expect(ftruncate(fd, 8192) == 0)
        let mapped = try #require(mmap(nil, 8192, PROT_READ, MAP_SHARED, fd, 0))
        #expect(ftruncate(fd, 0) == 0)
        // Past the end of a mapping the store does not own: the process ends with SIGBUS.
        let byte = mapped.load(fromByteOffset: 4096, as: UInt8.self)
        print("read \(byte) past the end and lived")
        store.close()
    }

    @Test("a SIGBUS outside the store's mappings still ends the process, with SIGBUS")
    func faultOutsideEndsProcess() throws {
        let directory = try TestScratch.directory("guard").path
        defer { TestSupport.removeDirectory(directory) }
        let child = try ChildProcess.start(
            filter: "childFaultOutside", environment: [Self.childVariable: directory + "/mapped", "SWIFT_BACKTRACE": "enable=no"])
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGBUS)
    }
}

/// What the readers of ``TruncationGuardTests/concurrentCuts()`` saw, shared with the cutter.
private final class Counts: Sendable {
    let right = Atomic<Int>(0)
    let damaged = Atomic<Int>(0)
    let done = Atomic<Bool>(false)
}
