import CofferTestSupport
import Foundation
import Testing

/// `delete`, `list`, `count`, absent keys and the store location defaults.
@Suite("delete, list and count")
struct KeyCommandTests {
    @Test("delete removes one or several keys; list and count follow")
    func deleteListCount() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let dir = ["--dir", directory]
        for key in ["b", "a", "c", "d"] {
            #expect(try KvstoreRunner.run(dir + ["set", key, "value-\(key)"]).status == 0)
        }
        #expect(try KvstoreRunner.run(dir + ["list"]).stdout == "a\nb\nc\nd\n")
        #expect(try KvstoreRunner.run(dir + ["count"]).stdout == "4\n")
        #expect(try KvstoreRunner.run(dir + ["delete", "b"]).status == 0)
        #expect(try KvstoreRunner.run(dir + ["list"]).stdout == "a\nc\nd\n")
        #expect(try KvstoreRunner.run(dir + ["delete", "a", "d", "absent"]).status == 0)
        #expect(try KvstoreRunner.run(dir + ["list"]).stdout == "c\n")
        #expect(try KvstoreRunner.run(dir + ["count"]).stdout == "1\n")
        #expect(try KvstoreRunner.run(dir + ["get", "c"]).stdout == "value-c\n")
    }

    @Test("--single-process stores are read and written like shared ones (the default)")
    func singleProcess() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let options = ["--dir", directory, "--single-process"]
        #expect(try KvstoreRunner.run(options + ["set", "alone", "7", "--type", "int32"]).status == 0)
        #expect(try KvstoreRunner.run(options + ["get", "alone", "--type", "int32"]).stdout == "7\n")
        #expect(try KvstoreRunner.run(["--dir", directory, "get", "alone", "--type", "int32"]).stdout == "7\n")
        #expect(try KvstoreRunner.run(["--dir", directory, "set", "shared", "8", "--type", "int32"]).status == 0)
        #expect(try KvstoreRunner.run(options + ["get", "shared", "--type", "int32"]).stdout == "8\n")
    }

    @Test("get of an absent key exits 1 naming the key")
    func absentKey() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try KvstoreRunner.run(["--dir", directory, "set", "present", "x"]).status == 0)
        let result = try KvstoreRunner.run(["--dir", directory, "get", "missing-key"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "kvstore: error: key not found: missing-key\n")
        // A store that does not exist has no keys either, and reading it creates nothing.
        let empty = directory + "/nothing"
        #expect(try KvstoreRunner.run(["--dir", empty, "get", "k"]).status == 1)
        #expect(try KvstoreRunner.run(["--dir", empty, "count"]).stdout == "0\n")
        #expect(try KvstoreRunner.run(["--dir", empty, "list"]).stdout == "")
        #expect(!FileManager.default.fileExists(atPath: empty))
    }

    @Test("the store is DIR/ID and DIR/ID.crc, DIR from --dir or $KVSTORE_DIR, ID mmkv.default")
    func storeLocation() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try KvstoreRunner.run(["set", "k", "v"], environment: ["KVSTORE_DIR": directory]).status == 0)
        #expect(FileManager.default.fileExists(atPath: directory + "/mmkv.default"))
        #expect(FileManager.default.fileExists(atPath: directory + "/mmkv.default.crc"))
        #expect(try KvstoreRunner.run(["--id", "other", "set", "k", "w"], environment: ["KVSTORE_DIR": directory]).status == 0)
        #expect(FileManager.default.fileExists(atPath: directory + "/other.crc"))
        // Global options are also accepted after the subcommand.
        #expect(try KvstoreRunner.run(["get", "k", "--dir", directory, "--id", "other"]).stdout == "w\n")
        #expect(try KvstoreRunner.run(["get", "k", "--dir", directory]).stdout == "v\n")
    }
}
