import CofferTestSupport
import Foundation
import KVStorage
import Testing

/// One named test per FuzzStoreLoad finding (FuzzTesting/Sources/FuzzStoreLoad).
@Suite("FuzzStoreLoad regressions")
struct StoreFuzzRegressionTests {
    /// A plain fixture store whose data file is cut to `length` bytes, in a new temporary directory.
    static func truncatedStore(_ length: Int) throws -> String {
        let directory = try MMKVFixtures.copyStore("plain")
        let path = directory + "/plain"
        try Data(try KvstoreRunner.bytes(path).prefix(length)).write(to: URL(fileURLWithPath: path))
        return directory
    }

    /// Found by FuzzStoreLoad (crash-2bc7dc9e…, flags 01, 112-byte meta, 4,701-byte data): a read-write
    /// open with `onDamage: .fail` grows the data and meta files to a whole page (MappedFile's
    /// `minimumSize`) before the loader refuses them, so the refused store is left zero-extended —
    /// against DESIGN.md's "the files are left exactly as they were".
    @Test("a refused read-write open of a truncated store leaves both files byte-identical")
    func refusedReadWriteOpenKeepsTruncatedFiles() throws {
        let directory = try Self.truncatedStore(2048)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let data = try KvstoreRunner.bytes(directory + "/plain")
        let meta = try KvstoreRunner.bytes(directory + "/plain.crc")
        #expect(throws: KVStoreError.self) {
            _ = try KVStore(KVStoreConfiguration(directory: directory, id: "plain", accessMode: .readWrite, onDamage: .fail))
        }
        #expect(try KvstoreRunner.bytes(directory + "/plain") == data)
        #expect(try KvstoreRunner.bytes(directory + "/plain.crc") == meta)
    }

    /// The same input through the CLI (whose read-write open checks the files before growing them):
    /// every write command refuses the truncated store and leaves it untouched.
    @Test("write commands refuse a truncated store and leave its files byte-identical")
    func cliKeepsTruncatedFiles() throws {
        let directory = try Self.truncatedStore(2048)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let data = try KvstoreRunner.bytes(directory + "/plain")
        let meta = try KvstoreRunner.bytes(directory + "/plain.crc")
        let options = ["--dir", directory, "--id", "plain"]
        for command in [["set", "k", "v"], ["delete", "str_106"], ["compact"], ["import", "-"], ["rekey", "--remove-key"]] {
            let result = try KvstoreRunner.run(options + command, stdin: Array("{\"k\": \"v\"}".utf8))
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.hasPrefix("kvstore: error: "), "\(command)")
        }
        #expect(try KvstoreRunner.bytes(directory + "/plain") == data)
        #expect(try KvstoreRunner.bytes(directory + "/plain.crc") == meta)
    }
}
