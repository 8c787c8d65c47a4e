import CofferErrors
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import KVStorage

#if canImport(Glibc)
import Glibc
#endif

/// A full disk never kills the process (no `SIGBUS` from a write or a read through the mappings):
/// every write that does not fit fails with `noSpace`, is not applied, and leaves the store open,
/// readable, and writable again once there is room. Write-backs (compaction, rekey) that do not fit
/// leave the files byte for byte as they were. Run on a real small tmpfs where the tests may mount
/// one, and always under a file size limit (`RLIMIT_FSIZE`) in a child process.
@Suite("Full disk", .serialized)
struct FullDiskTests {
    static let directoryVariable = "KVSTORE_FULLDISK_CHILD_DIR"

    /// Writes 8 KiB values until the file system refuses; checks the refusal, the reads, compaction
    /// and rekey on the full disk, then frees space with `drain` and writes again. Returns the keys
    /// acknowledged.
    static func exercise(directory: String, drain: () -> Void) throws -> [String] {
        let configuration = KVStoreConfiguration(directory: directory, id: "full")
        let store = try KVStore(configuration)
        defer { store.close() }
        var acknowledged: [String] = []
        var refusal: KVStoreError?
        for number in 0..<2_000 {
            let key = "k\(number)"
            do throws(KVStoreError) {
                try store.set(String(repeating: Character(UnicodeScalar(UInt8(65 + number % 26))), count: 8 * 1024), forKey: key)
                acknowledged.append(key)
            } catch {
                refusal = error
                break
            }
        }
        let error = try #require(refusal, "the file system never filled")
        #expect(error.code == .noSpace, "\(error)")
        #expect(error.errno == ENOSPC || error.errno == EFBIG || error.errno == EDQUOT)
        #expect(error.path?.hasPrefix(directory) == true)
        #expect(error.reason.contains("bytes"))
        #expect(try store.count() == acknowledged.count, "the refused write was not applied")
        #expect(try store.contains("k\(acknowledged.count)") == false)

        // Write-backs on the full disk: refused, files unchanged, store still usable.
        let dataPath = configuration.dataPath
        let data = try TestSupport.read(dataPath)
        let meta = try TestSupport.read(configuration.metaPath)
        for (label, operation) in [("compact", { () throws(KVStoreError) in try store.compact() }),
                                   ("rekey", { () throws(KVStoreError) in
                                       try store.rekey(to: SecureBytes(Array("new-key".utf8)))
                                       try store.rekey(to: nil)    // where it fitted: back to plain for the checks below
                                   })] {
            do throws(KVStoreError) {
                try operation()
            } catch {
                #expect(error.code == .noSpace, "\(label): \(error)")
                #expect(try TestSupport.read(dataPath) == data, "\(label) changed the data file")
                #expect(try TestSupport.read(configuration.metaPath) == meta, "\(label) changed the meta file")
                #expect(!FileManager.default.fileExists(atPath: dataPath + StoreCore.compactSuffix), "\(label) left its temporary file")
            }
        }
        for key in acknowledged { #expect(try store.string(forKey: key)?.count == 8 * 1024, "\(key) unreadable on the full disk") }

        drain()
        try store.set("room again", forKey: "after")
        acknowledged.append("after")
        #expect(try store.string(forKey: "after") == "room again")
        return acknowledged
    }

    /// Reopens the store and checks every acknowledged key.
    static func checkReopened(directory: String, acknowledged: [String]) throws {
        let store = try KVStore(KVStoreConfiguration(directory: directory, id: "full"))
        defer { store.close() }
        #expect(try store.count() == acknowledged.count)
        for key in acknowledged { #expect(try store.contains(key), "\(key) lost") }
        #expect(try store.statistics().crcValid)
    }

    @Test("a full tmpfs: writes fail with noSpace, reads, compaction and rekey stay safe, writes resume",
          .enabled(if: SmallFileSystem.available, "needs root and the right to mount a tmpfs"))
    func fullTmpfs() throws {
        let disk = try SmallFileSystem(bytes: 1024 * 1024)
        defer { disk.unmount() }
        let directory = disk.path + "/stores"
        try disk.fill(leaving: 160 * 1024)
        let acknowledged = try Self.exercise(directory: directory) { disk.drain() }
        try Self.checkReopened(directory: directory, acknowledged: acknowledged)
    }

    @Test("a store created on a completely full tmpfs opens readable, refuses writes, and reads its holes without SIGBUS",
          .enabled(if: SmallFileSystem.available, "needs root and the right to mount a tmpfs"))
    func createdOnFullDisk() throws {
        let disk = try SmallFileSystem(bytes: 256 * 1024)
        defer { disk.unmount() }
        let directory = disk.path + "/stores"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try disk.fill()
        let configuration = KVStoreConfiguration(directory: directory, id: "born-full")
        let store = try KVStore(configuration)
        #expect(try store.count() == 0)
        #expect(throws: KVStoreError(.noSpace, "")) { try store.set("x", forKey: "k") }
        store.close()
        // Its files are holes (or empty): reading them must not fault.
        #expect(try KVStore.verify(configuration).liveEntries == 0)
        let reader = try KVStore(KVStoreConfiguration(directory: directory, id: "born-full", accessMode: .readOnly))
        #expect(try reader.count() == 0)
        reader.close()
        disk.drain()
        let again = try KVStore(configuration)
        defer { again.close() }
        try again.set("now", forKey: "k")
        #expect(try again.string(forKey: "k") == "now")
    }

    @Test("a meta size pointing into a hole of a sparse data file is damage (unwrittenData), found without touching the hole",
          .enabled(if: SmallFileSystem.available, "needs root and the right to mount a tmpfs"))
    func sparseDataFile() throws {
        let disk = try SmallFileSystem(bytes: 256 * 1024)
        defer { disk.unmount() }
        let directory = disk.path + "/stores"
        do {
            let store = try KVStore(KVStoreConfiguration(directory: directory, id: "sparse"))
            for number in 0..<50 { try store.set("value \(number)", forKey: "k\(number)") }
            store.close()
        }
        // The data file as a crash on a full disk can leave it: the size is there, the bytes never were.
        let dataPath = directory + "/sparse"
        let size = try #require(FileManager.default.attributesOfItem(atPath: dataPath)[.size] as? Int)
        unlink(dataPath)
        let fd = open(dataPath, O_RDWR | O_CREAT, 0o600)
        #expect(ftruncate(fd, off_t(size)) == 0)
        close(fd)
        try disk.fill()
        do throws(KVStoreError) {
            _ = try KVStore.verify(KVStoreConfiguration(directory: directory, id: "sparse"))
            Issue.record("a data file that is all hole verified")
        } catch {
            #expect(error.code == .damaged)
            guard case .unwrittenData = error.damage else {
                Issue.record("expected unwrittenData, got \(String(describing: error.damage))")
                return
            }
        }
        let salvage = try TestScratch.directory("salvage-sparse").path
        #expect(throws: KVStoreError.self) {
            try KVStore.salvage(KVStoreConfiguration(directory: directory, id: "sparse"), toDirectory: salvage)
        }
    }

    @Test("child: write under a file size limit", .enabled(if: ChildProcess.environment(directoryVariable) != nil))
    func limitedChild() throws {
        let directory = try #require(ChildProcess.environment(Self.directoryVariable))
        FileSizeLimit.apply(bytes: 256 * 1024)
        // There is no space to give back under a fixed limit: "drain" is a no-op, and the write
        // after it is expected to fail the same way, so it is tried apart.
        do {
            _ = try Self.exercise(directory: directory) {}
        } catch let error as KVStoreError where error.code == .noSpace {
            // The write after "drain" was refused as well: expected under a fixed limit.
        }
    }

    @Test("under RLIMIT_FSIZE (SIGXFSZ ignored) writes fail with noSpace (EFBIG), never a signal; every acknowledged key survives")
    func fileSizeLimit() throws {
        let directory = try TestScratch.directory("fsize").path
        let child = try ChildProcess.start(filter: "limitedChild", environment: [Self.directoryVariable: directory])
        child.waitUntilExit()
        #expect(child.terminationReason == .exit, "the child died of a signal (\(child.terminationStatus))")
        #expect(child.terminationStatus == 0, "the child's checks failed")
        let store = try KVStore(KVStoreConfiguration(directory: directory, id: "full"))
        defer { store.close() }
        #expect(try store.count() > 0)
        #expect(try store.statistics().crcValid)
    }
}
