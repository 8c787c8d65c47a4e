import CofferTestSupport
import Foundation
import Testing

/// `kvstore salvage --to DIR [--json]` on a store whose middle entry no longer parses.
@Suite("salvage command")
struct SalvageCommandTests {
    @Test("salvage writes the parsable entries as a new store and leaves the damaged files byte-identical")
    func salvageDamagedStore() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = directory + "/src"
        for number in 1...5 {
            #expect(try KvstoreRunner.run(["--dir", source, "set", "key\(number)", "value number \(number)"]).status == 0)
        }
        #expect(try KvstoreRunner.run(["--dir", source, "delete", "key2"]).status == 0)
        let dataPath = source + "/mmkv.default"
        var data = try KvstoreRunner.bytes(dataPath)
        let key3 = try #require(data.indices.first { Array(data[$0..<min($0 + 4, data.count)]) == Array("key3".utf8) })
        data[key3 - 1] = 0xC0
        try Data(data).write(to: URL(fileURLWithPath: dataPath))
        let meta = try KvstoreRunner.bytes(dataPath + ".crc")
        #expect(try KvstoreRunner.run(["--dir", source, "verify"]).status == 1)

        let result = try KvstoreRunner.run(["--dir", source, "salvage", "--to", directory + "/out", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try KvstoreRunner.bytes(dataPath) == data)
        #expect(try KvstoreRunner.bytes(dataPath + ".crc") == meta)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(report["liveKeys"] as? Int == 3)
        #expect(report["crcMatches"] as? Bool == false)
        #expect(report["intactPrefixEnd"] as? Int == key3 - 1)
        let entries = try #require(report["entries"] as? [[String: Any]])
        #expect(entries.map { $0["key"] as? String } == ["key1", "key2", "key4", "key5", "key2"])
        #expect(entries.map { $0["afterDamage"] as? Bool } == [false, false, true, true, true])

        #expect(try KvstoreRunner.run(["--dir", directory + "/out", "verify"]).status == 0)
        let list = try KvstoreRunner.run(["--dir", directory + "/out", "list"])
        #expect(list.stdout == "key1\nkey4\nkey5\n")
        #expect(try KvstoreRunner.run(["--dir", directory + "/out", "get", "key4"]).stdout == "value number 4\n")

        let again = try KvstoreRunner.run(["--dir", source, "salvage", "--to", directory + "/out"])
        #expect(again.status == 1)
        #expect(again.stderr.hasPrefix("kvstore: error: a store already exists"))
        let missing = try KvstoreRunner.run(["--dir", directory + "/none", "salvage", "--to", directory + "/out3"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no store at"))
    }
}
