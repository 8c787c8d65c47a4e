import CofferTestSupport
import Foundation
import Testing

@testable import KVStorage

#if canImport(Glibc)
import Glibc
#endif

/// Two processes and one store: a read-write single-process open has the store to itself, so a
/// second process is refused with `inUse` naming the first one's pid, and nothing is damaged;
/// shared (multi-process) opens coexist.
@Suite("Ownership across processes", .serialized)
struct OwnershipTests {
    static let directoryVariable = "KVSTORE_OWNER_CHILD_DIR"
    static let sharedVariable = "KVSTORE_OWNER_CHILD_SHARED"

    static func configuration(_ directory: String, multiProcess: Bool, access: KVStoreConfiguration.AccessMode = .readWrite) -> KVStoreConfiguration {
        KVStoreConfiguration(directory: directory, id: "owned", accessMode: access, multiProcess: multiProcess)
    }

    @Test("child: hold the store open until released", .enabled(if: ChildProcess.environment(directoryVariable) != nil))
    func holder() throws {
        let directory = try #require(ChildProcess.environment(Self.directoryVariable))
        let shared = ChildProcess.environment(Self.sharedVariable) == "1"
        let store = try KVStore(Self.configuration(directory, multiProcess: shared))
        defer { store.close() }
        try store.set("by the holder", forKey: "held")
        _ = FileManager.default.createFile(atPath: directory + "/ready", contents: nil)
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: directory + "/release") && Date() < deadline { usleep(2_000) }
    }

    /// Starts a holder and waits until it has the store open.
    static func startHolder(_ directory: String, shared: Bool) throws -> Process {
        let child = try ChildProcess.start(
            filter: "holder", environment: [directoryVariable: directory, sharedVariable: shared ? "1" : "0"])
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: directory + "/ready") && Date() < deadline && child.isRunning { usleep(2_000) }
        try #require(FileManager.default.fileExists(atPath: directory + "/ready"), "the holder did not open the store")
        return child
    }

    static func release(_ child: Process, _ directory: String) {
        _ = FileManager.default.createFile(atPath: directory + "/release", contents: nil)
        child.waitUntilExit()
    }

    static func openError(_ configuration: KVStoreConfiguration) -> KVStoreError? {
        do {
            let store = try KVStore(configuration)
            store.close()
            return nil
        } catch {
            return error
        }
    }

    @Test("a single-process holder: every other open is refused with inUse and the holder's pid; nothing is damaged")
    func singleProcessHolder() throws {
        let directory = try TestScratch.directory("owner").path
        let child = try Self.startHolder(directory, shared: false)
        let data = try TestSupport.read(directory + "/owned")
        let meta = try TestSupport.read(directory + "/owned.crc")

        for (label, configuration) in [
            ("single-process read-write", Self.configuration(directory, multiProcess: false)),
            ("multi-process read-write", Self.configuration(directory, multiProcess: true)),
            ("single-process read-only", Self.configuration(directory, multiProcess: false, access: .readOnly)),
        ] {
            let error = try #require(Self.openError(configuration), "\(label): opened next to a single-process holder")
            #expect(error.code == .inUse, "\(label): \(error)")
            #expect(error.reason.contains("pid \(child.processIdentifier)"), "\(label): \(error.reason)")
            #expect(error.path == directory + "/owned.crc")
        }
        #expect(throws: KVStoreError.self) { try KVStore.verify(Self.configuration(directory, multiProcess: false)) }
        #expect(try TestSupport.read(directory + "/owned") == data, "a refused open changed the data file")
        #expect(try TestSupport.read(directory + "/owned.crc") == meta, "a refused open changed the meta file")

        Self.release(child, directory)
        #expect(child.terminationStatus == 0)
        let store = try KVStore(Self.configuration(directory, multiProcess: false))
        defer { store.close() }
        #expect(try store.string(forKey: "held") == "by the holder")
        #expect(try store.statistics().crcValid)
    }

    @Test("multi-process opens coexist; a single-process open next to them is refused")
    func sharedHolder() throws {
        let directory = try TestScratch.directory("owner-shared").path
        let child = try Self.startHolder(directory, shared: true)
        defer { Self.release(child, directory) }
        let shared = try KVStore(Self.configuration(directory, multiProcess: true))
        #expect(try shared.string(forKey: "held") == "by the holder")
        try shared.set("by the second process", forKey: "second")
        shared.close()
        let error = try #require(Self.openError(Self.configuration(directory, multiProcess: false)))
        #expect(error.code == .inUse)
        #expect(error.reason.contains("pid \(child.processIdentifier)"), "\(error.reason)")
    }

    @Test("a killed holder leaves no lock behind")
    func killedHolder() throws {
        let directory = try TestScratch.directory("owner-killed").path
        let child = try Self.startHolder(directory, shared: false)
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        let store = try KVStore(Self.configuration(directory, multiProcess: false))
        defer { store.close() }
        #expect(try store.string(forKey: "held") == "by the holder")
    }
}
