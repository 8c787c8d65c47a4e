import CofferTestSupport
import Foundation
import Testing

/// `compact` and `rekey`.
@Suite("compact and rekey")
struct MaintenanceTests {
    @Test("compact drops dead entries and keeps every value")
    func compact() throws {
        let directory = try MMKVFixtures.copyStore("deleted")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let options = ["--dir", directory, "--id", "deleted"]
        // Make some dead entries: overwrite and delete.
        #expect(try KvstoreRunner.run(options + ["set", "extra", "1"]).status == 0)
        #expect(try KvstoreRunner.run(options + ["set", "extra", "2"]).status == 0)
        #expect(try KvstoreRunner.run(options + ["delete", "extra"]).status == 0)
        let before = try stats(options)
        #expect((before["deadEntries"] as? Int ?? 0) >= 2)
        let export = try KvstoreRunner.run(options + ["export"]).stdout
        let raw = try ExportImportTests.rawValues(options)
        let result = try KvstoreRunner.run(options + ["compact"])
        #expect(result.status == 0, "\(result.stderr)")
        let after = try stats(options)
        #expect(after["deadEntries"] as? Int == 0)
        #expect((after["usedSize"] as? Int ?? .max) < (before["usedSize"] as? Int ?? 0))
        #expect((after["fileSize"] as? Int ?? .max) <= (before["fileSize"] as? Int ?? 0))
        #expect(try KvstoreRunner.run(options + ["export"]).stdout == export)
        #expect(try ExportImportTests.rawValues(options) == raw)
        #expect(try KvstoreRunner.run(options + ["verify"]).status == 0)
    }

    @Test("rekey adds, changes and removes the crypt key")
    func rekey() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try KvstoreRunner.writeFile("first-key\n", named: "k1", in: directory)
        let second = try KvstoreRunner.writeFile("second-key-for-aes256", named: "k2", in: directory)
        let store = ["--dir", directory + "/store"]
        #expect(try KvstoreRunner.run(store + ["set", "greeting", "hello"]).status == 0)
        #expect(try KvstoreRunner.run(store + ["set", "n", "42", "--type", "int64"]).status == 0)
        let plainData = try KvstoreRunner.bytes(directory + "/store/mmkv.default")
        #expect(plainData.contains(Array("hello".utf8)))

        // Add a key.
        let add = try KvstoreRunner.run(store + ["rekey", "--new-crypt-key-file", first])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(!(try KvstoreRunner.bytes(directory + "/store/mmkv.default")).contains(Array("hello".utf8)))
        #expect(try KvstoreRunner.run(store + ["get", "greeting"]).status == 1)
        #expect(try KvstoreRunner.run(store + ["--crypt-key-file", first, "get", "greeting"]).stdout == "hello\n")
        #expect(try KvstoreRunner.run(store + ["--crypt-key-env", "K", "get", "greeting"], environment: ["K": "first-key"]).stdout == "hello\n")

        // Change it, to AES-256.
        let change = try KvstoreRunner.run(store + ["--crypt-key-file", first, "rekey", "--new-crypt-key-env", "K2", "--new-cipher", "aes256"],
                                           environment: ["K2": "second-key-for-aes256"])
        #expect(change.status == 0, "\(change.stderr)")
        #expect(try KvstoreRunner.run(store + ["--crypt-key-file", first, "get", "greeting"]).status == 1)
        #expect(try KvstoreRunner.run(store + ["--crypt-key-file", second, "--aes256", "get", "n", "--type", "int64"]).stdout == "42\n")
        #expect(try KvstoreRunner.run(store + ["--crypt-key-file", second, "--aes256", "stats"]).stdout.contains("aes-256-cfb"))

        // Remove it.
        let remove = try KvstoreRunner.run(store + ["--crypt-key-file", second, "--aes256", "rekey", "--remove-key"])
        #expect(remove.status == 0, "\(remove.stderr)")
        #expect(try KvstoreRunner.run(store + ["get", "greeting"]).stdout == "hello\n")
        #expect(try KvstoreRunner.run(store + ["count"]).stdout == "2\n")
        #expect(try KvstoreRunner.run(store + ["verify"]).status == 0)
    }

    @Test("rekey of an MMKV AES-128 fixture to a new key keeps every value")
    func rekeyFixture() throws {
        let directory = try MMKVFixtures.copyStore("aes128")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = ["--dir", directory, "--id", "aes128", "--crypt-key-env", "OLD"]
        let new = ["--dir", directory, "--id", "aes128", "--crypt-key-env", "NEW"]
        let environment = ["OLD": "coffer-fixture-key", "NEW": "another-key"]
        let raw = try ExportImportTests.rawValues(old, environment: environment)
        #expect(try KvstoreRunner.run(old + ["rekey", "--new-crypt-key-env", "NEW"], environment: environment).status == 0)
        #expect(try ExportImportTests.rawValues(new, environment: environment) == raw)
        #expect(try KvstoreRunner.run(old + ["count"], environment: environment).status == 1)
    }

    private func stats(_ options: [String]) throws -> [String: Any] {
        let result = try KvstoreRunner.run(options + ["stats", "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }
}
