import CofferErrors
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import KVStorage

#if canImport(Glibc)
import Glibc
#endif

/// Crash safety: a child process writing (appends, overwrites, deletes, growth, compaction, trim,
/// rekey) is SIGKILLed at random points; after each kill the store must open and hold exactly the
/// state after its last acknowledged operation, or after the one in flight.
///
/// The child is this test binary re-invoked with `KVSTORE_CRASH_CHILD_DIR` and
/// `KVSTORE_CRASH_CHILD_SEED` set, running `crashChildWriter`. `KVSTORE_CRASH_ITERATIONS` sets the
/// number of kills (default 25); `tools/store-crash-test` runs 1000.
@Suite("Crash safety under SIGKILL", .serialized)
struct CrashTests {
    static let directoryVariable = "KVSTORE_CRASH_CHILD_DIR"
    static let seedVariable = "KVSTORE_CRASH_CHILD_SEED"
    static let keyA = SecureBytes(Array("crash-key-A".utf8))
    static let keyB = SecureBytes(Array("crash-key-B-for-aes256-0123456789".utf8))

    enum Operation {
        case setInt(String, Int64)
        case setString(String, String)
        case remove(String)
        case removeMany([String])
        case compact
        case trim
        case rekey(SecureBytes?, KVStoreConfiguration.Cipher)
    }

    /// Operation `index` of the run with `seed`.
    ///
    /// Odd seeds only append (sets and single removes, so growth dominates); even seeds mix in
    /// write-backs (multi-key removes, compaction, trim, rekey), whose fsyncs make them the
    /// operation most often in flight at the kill.
    static func operation(seed: UInt64, index: Int) -> Operation {
        var random = SplitMix64(seed ^ (UInt64(index) &* 0xD6E8_FEB8_6659_FD93))
        let roll = random.next() % (seed % 2 == 1 ? 940 : 1000)
        let intKey = "i\(random.next() % 64)"
        let stringKey = "s\(random.next() % 48)"
        switch roll {
        case 0..<450:
            return .setInt(intKey, Int64(index) &* 7_919 - 1_000_000)
        case 450..<800:
            let length = Int(random.next() % (roll < 770 ? 40 : 3000))
            return .setString(stringKey, String(repeating: "x", count: length) + "#\(index)")
        case 800..<940:
            return .remove(roll % 2 == 0 ? intKey : stringKey)
        case 940..<955:
            return .removeMany([intKey, stringKey, "i\(random.next() % 64)"])
        case 955..<975:
            return .compact
        case 975..<985:
            return .trim
        default:
            switch random.next() % 3 {
            case 0: return .rekey(nil, .aes128)
            case 1: return .rekey(keyA, .aes128)
            default: return .rekey(keyB, .aes256)
            }
        }
    }

    /// The logical store state: payloads by key, and the crypt key.
    struct Model: Equatable {
        var values: [String: [UInt8]] = [:]
        var key: SecureBytes?
        var cipher: KVStoreConfiguration.Cipher = .aes128

        mutating func apply(_ operation: Operation) {
            switch operation {
            case let .setInt(key, value): values[key] = KVStoreValueCodec.encode(value)
            case let .setString(key, value): values[key] = KVStoreValueCodec.encode(value)
            case let .remove(key): values[key] = nil
            case let .removeMany(keys): for key in keys { values[key] = nil }
            case .compact, .trim: break
            case let .rekey(key, cipher): self.key = key; self.cipher = cipher
            }
        }
    }

    static func perform(_ operation: Operation, on store: KVStore) throws {
        switch operation {
        case let .setInt(key, value): try store.set(value, forKey: key)
        case let .setString(key, value): try store.set(value, forKey: key)
        case let .remove(key): try store.remove(key)
        case let .removeMany(keys): try store.remove(keys)
        case .compact: try store.compact()
        case .trim: try store.trim()
        case let .rekey(key, cipher): try store.rekey(to: key, cipher: cipher)
        }
    }

    /// Set for the nearly-full variant: the folder of a small file system where the child keeps a
    /// ballast file, filling and freeing it in turns.
    static let ballastVariable = "KVSTORE_CRASH_CHILD_BALLAST"
    /// Where the store lives when not beside the acknowledgements (on the small file system, which
    /// the acknowledgements must not share: they could not be written while it is full).
    static let storeVariable = "KVSTORE_CRASH_CHILD_STORE"

    @Test("child: write until killed", .enabled(if: ChildProcess.environment(directoryVariable) != nil))
    func crashChildWriter() throws {
        let directory = try #require(ChildProcess.environment(Self.directoryVariable))
        let seed = try #require(UInt64(ChildProcess.environment(Self.seedVariable) ?? ""))
        let ballast = ChildProcess.environment(Self.ballastVariable)
        let storeDirectory = ChildProcess.environment(Self.storeVariable) ?? directory
        let store = try KVStore(KVStoreConfiguration(directory: storeDirectory, id: "crash"))
        let fd = open(directory + "/acks", O_WRONLY | O_CREAT | O_APPEND, 0o600)
        var index = 0
        while index < 200_000 {
            if let ballast, index % 150 == 75 {
                // Space comes and goes: fill the file system to 24 KiB of free space, or free it.
                if FileManager.default.fileExists(atPath: ballast + "/ballast") {
                    SmallFileSystem.drain(ballast)
                } else {
                    try SmallFileSystem.fill(ballast, leaving: 24 * 1024)
                }
            }
            do {
                try Self.perform(Self.operation(seed: seed, index: index), on: store)
                ChildProcess.appendLine(String(index), fd: fd)
            } catch let error as KVStoreError where ballast != nil && error.code == .noSpace {
                // Refused for lack of space: not applied, so not acknowledged ("!").
                ChildProcess.appendLine(String(index) + "!", fd: fd)
            }
            index += 1
        }
    }

    /// The child's complete acknowledgement lines, in order: `true` for an operation it applied,
    /// `false` for one refused with `noSpace`.
    static func acknowledgements(_ directory: String) -> [Bool] {
        guard let text = try? String(contentsOfFile: directory + "/acks", encoding: .utf8) else { return [] }
        // Only complete lines count: the last one may have been cut by the kill.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        if !text.hasSuffix("\n") && !lines.isEmpty { lines.removeLast() }
        return lines.map { !$0.hasSuffix("!") }
    }

    static func acknowledged(_ directory: String) -> Int { acknowledgements(directory).count }

    /// Opens the killed child's store and returns its contents, trying the crypt keys the model allows.
    static func contents(_ directory: String, keys: [Model]) throws -> (values: [String: [UInt8]], model: Int) {
        var lastError = KVStoreError(.wrongCryptKey, "no key opened the store")
        for (position, model) in keys.enumerated() {
            let configuration = KVStoreConfiguration(directory: directory, id: "crash", cryptKey: model.key, cipher: model.cipher)
            let store: KVStore
            switch Self.openStore(configuration) {
            case let .success(opened):
                store = opened
            case let .failure(error):
                guard error.code == .wrongCryptKey || error.code == .undecodable else { throw error }
                lastError = error
                continue
            }
            defer { store.close() }
            var values: [String: [UInt8]] = [:]
            for entry in try store.entries() { values[entry.key] = entry.payload }
            // The recovered store must accept writes.
            try store.set("alive", forKey: "after-crash")
            return (values, position)
        }
        throw lastError
    }

    static func openStore(_ configuration: KVStoreConfiguration) -> Result<KVStore, KVStoreError> {
        Result { () throws(KVStoreError) -> KVStore in try KVStore(configuration) }
    }

    /// Kills a writing child `iterations` times; on `disk`, a small file system that the child fills
    /// and frees in turns, so that writes also fail for lack of space.
    static func runKills(_ iterations: Int, on disk: SmallFileSystem? = nil) throws {
        var outcomes: [String: Int] = [:]
        var refused = 0
        for iteration in 0..<iterations {
            let directory = try TestScratch.directory("crash").path
            var storeDirectory = directory
            if let disk {
                disk.drain()
                storeDirectory = disk.path + "/crash-\(iteration)"
                try FileManager.default.createDirectory(atPath: storeDirectory, withIntermediateDirectories: true)
            }
            defer {
                TestSupport.removeDirectory(directory)
                TestSupport.removeDirectory(storeDirectory)
            }
            let seed = UInt64.random(in: 1...UInt64.max)
            var environment = [directoryVariable: directory, seedVariable: String(seed)]
            if let disk {
                environment[ballastVariable] = disk.path
                environment[storeVariable] = storeDirectory
            }
            let child = try ChildProcess.start(filter: "crashChildWriter", environment: environment)
            let deadline = Date().addingTimeInterval(20)
            while acknowledged(directory) < 1 && Date() < deadline && child.isRunning { usleep(500) }
            usleep(UInt32.random(in: 0...60_000))
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            disk?.drain()    // room for the check's own write
            let acknowledgements = acknowledgements(directory)
            let done = acknowledgements.count
            #expect(done > 0, "iteration \(iteration): the child acknowledged nothing")
            refused += acknowledgements.filter { !$0 }.count

            var before = Model()
            for (index, applied) in acknowledgements.enumerated() where applied { before.apply(operation(seed: seed, index: index)) }
            var after = before
            let inFlight = operation(seed: seed, index: done)
            after.apply(inFlight)
            do {
                let (values, _) = try contents(storeDirectory, keys: before.key == after.key ? [before] : [before, after])
                let matches = values == before.values || values == after.values
                #expect(matches, "iteration \(iteration) seed \(seed): \(done) acknowledged operations, contents differ")
                outcomes["\(inFlight)".prefix(while: { $0 != "(" }).description, default: 0] += 1
            } catch {
                Issue.record("iteration \(iteration) seed \(seed): the store does not open after the kill: \(error)")
            }
        }
        print("crash test\(disk == nil ? "" : " (nearly full file system)"): \(iterations) kills; operation in flight at the kill: \(outcomes)"
              + (disk == nil ? "" : "; \(refused) operations refused for lack of space"))
    }

    @Test("SIGKILL at random points never loses an acknowledged write")
    func killAtRandomPoints() throws {
        let iterations = Int(ChildProcess.environment("KVSTORE_CRASH_ITERATIONS") ?? "") ?? 25
        try Self.runKills(iterations)
    }

    @Test("SIGKILL on a nearly full file system never loses an acknowledged write",
          .enabled(if: SmallFileSystem.available, "needs root and the right to mount a tmpfs"))
    func killOnNearlyFullDisk() throws {
        let iterations = Int(ChildProcess.environment("KVSTORE_CRASH_FULL_ITERATIONS") ?? "") ?? 20
        let disk = try SmallFileSystem(bytes: 1024 * 1024)
        defer { disk.unmount() }
        try Self.runKills(iterations, on: disk)
    }
}
