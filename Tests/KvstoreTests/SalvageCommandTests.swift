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
        #expect(result.status == 1, "damage was found: the salvage is incomplete")
        #expect(result.stderr.hasPrefix("kvstore: error: the salvage is incomplete"), "\(result.stderr)")
        #expect(try KvstoreRunner.bytes(dataPath) == data)
        #expect(try KvstoreRunner.bytes(dataPath + ".crc") == meta)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(report["liveKeys"] as? Int == 3)
        #expect(report["crcMatches"] as? Bool == false)
        #expect(report["intactPrefixEnd"] as? Int == key3 - 1)
        let entries = try #require(report["entries"] as? [[String: Any]])
        #expect(entries.map { $0["key"] as? String } == ["key1", "key2", "key4", "key5", "key2"])
        #expect(entries.map { $0["afterDamage"] as? Bool } == [false, false, true, true, true])
        #expect(report["complete"] as? Bool == false)
        #expect(report["uncertainKeys"] as? [String] == ["key4"], "the first entry found after the damage is not confirmed")

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

    /// The user's report in issue 38: 64 zero bytes in the middle of a 300-key data file. Salvage
    /// exited 0 calling 284 entries "the intact prefix" while 20 keys were missing or wrong and the
    /// new store held garbage keys made of several swallowed entries.
    @Test("64 zero bytes in the middle of 300 keys: exit 1, the damaged range and the lost keys named, no garbage keys")
    func zeroedMiddle() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = directory + "/src"
        func value(_ number: Int) -> String { "value-\(number)-" + String(repeating: "x", count: 16) }
        let json = "{" + (0..<300).map { "\"k\($0)\": \"\(value($0))\"" }.joined(separator: ", ") + "}"
        let imported = try KvstoreRunner.run(["--dir", source, "import", "-"], stdin: Array(json.utf8))
        #expect(imported.status == 0, "\(imported.stderr)")
        let history = try KvstoreRunner.run(["--dir", source, "dump", "--history", "--json"])
        let entries = try history.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        #expect(entries.count == 300)
        var spans: [String: Range<Int>] = [:]
        for entry in entries {
            let offset = try #require(entry["offset"] as? Int)
            spans[try #require(entry["key"] as? String)] = offset..<offset + (try #require(entry["size"] as? Int))
        }

        let dataPath = source + "/mmkv.default"
        var data = try KvstoreRunner.bytes(dataPath)
        let size = Int(data[0]) | Int(data[1]) << 8 | Int(data[2]) << 16 | Int(data[3]) << 24
        let zeroed = (4 + size / 2)..<(4 + size / 2 + 64)
        for index in zeroed { data[index] = 0 }
        try Data(data).write(to: URL(fileURLWithPath: dataPath))
        #expect(try KvstoreRunner.run(["--dir", source, "verify"]).status == 1)

        // The text report.
        let text = try KvstoreRunner.run(["--dir", source, "salvage", "--to", directory + "/text"])
        #expect(text.status == 1)
        #expect(text.stderr.hasPrefix("kvstore: error: the salvage is incomplete"), "\(text.stderr)")
        #expect(text.stderr.contains(dataPath))
        #expect(text.stdout.contains("the CRC does not match"))
        #expect(!text.stdout.contains("intact prefix"))

        // The JSON report: the damaged range covers the zeroed bytes.
        let result = try KvstoreRunner.run(["--dir", source, "salvage", "--to", directory + "/out", "--json"])
        #expect(result.status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(report["complete"] as? Bool == false)
        let ranges = try #require(report["damagedRanges"] as? [[Int]]).map { $0[0]..<$0[1] }
        #expect(ranges.contains { $0.lowerBound <= zeroed.lowerBound && $0.upperBound >= zeroed.upperBound }, "\(ranges)")
        for range in ranges { #expect(text.stdout.contains("damaged bytes \(range.lowerBound)..<\(range.upperBound)")) }
        let lost = Set(try #require(report["lostKeys"] as? [String]))
        let uncertain = Set(try #require(report["uncertainKeys"] as? [String]))

        // Every key of the new store is one that was written, with its value unless named uncertain;
        // every key missing or wrong is named, or its entry lay inside a damaged range.
        let exported = try KvstoreRunner.run(["--dir", directory + "/out", "export"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let salvaged = try #require(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: [String: Any]])
        for (key, typed) in salvaged {
            #expect(spans[key] != nil, "garbage key \(key.debugDescription) in the salvaged store")
            guard !uncertain.contains(key), let number = Int(key.dropFirst()) else { continue }
            #expect(typed["value"] as? String == value(number), "\(key)")
        }
        var missing: [String] = []
        for number in 0..<300 where salvaged["k\(number)"]?["value"] as? String != value(number) {
            let key = "k\(number)"
            missing.append(key)
            let span = try #require(spans[key])
            #expect(lost.contains(key) || uncertain.contains(key) || ranges.contains { $0.overlaps(span) }, "\(key)")
        }
        #expect(!missing.isEmpty && missing.count <= 5, "64 bytes touch at most 3 entries of 32 bytes, and one on each side may be uncertain: \(missing)")
        #expect(salvaged.count >= 296)
        #expect(try KvstoreRunner.run(["--dir", directory + "/out", "verify"]).status == 0)
    }
}
