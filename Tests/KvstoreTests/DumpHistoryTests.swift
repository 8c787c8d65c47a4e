import CofferTestSupport
import Foundation
import Testing

/// `kvstore dump --history [--json]`: every log entry in file order with its offset and state.
@Suite("dump --history")
struct DumpHistoryTests {
    /// The JSON objects of a JSON Lines output.
    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    @Test("overwrites and deletes made through the CLI are listed in file order with their states")
    func cliWrites() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let options = ["--dir", directory]
        for command in [["set", "a", "one"], ["set", "a", "two"], ["set", "n", "7", "--type", "int64"], ["delete", "n"],
                        ["set", "b", "0.5", "--type", "double"]] {
            let result = try KvstoreRunner.run(options + command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let json = try KvstoreRunner.run(options + ["dump", "--history", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let lines = try Self.objects(json.stdout)
        #expect(lines.map { $0["key"] as? String } == ["a", "a", "n", "n", "b"])
        #expect(lines.map { $0["state"] as? String } == ["superseded", "live", "deleted", "deleted", "live"])
        #expect(lines.map { $0["tombstone"] as? Bool } == [false, false, false, true, false])
        let offsets = lines.compactMap { $0["offset"] as? Int }
        let sizes = lines.compactMap { $0["size"] as? Int }
        #expect(offsets.first == 8, "the first entry follows the header and the 4-byte placeholder")
        for index in 1..<offsets.count { #expect(offsets[index] == offsets[index - 1] + sizes[index - 1]) }
        #expect(lines[0]["raw_hex"] as? String == "036f6e65")
        #expect((lines[0]["guess"] as? [String: Any])?["type"] as? String == "string")
        #expect(lines[3]["guess"] == nil, "a tombstone has no value to guess")
        #expect((lines[4]["guess"] as? [String: Any])?["type"] as? String == "double")

        let text = try KvstoreRunner.run(options + ["dump", "--history"])
        #expect(text.status == 0)
        let textLines = text.stdout.split(separator: "\n")
        #expect(textLines.count == 5)
        #expect(textLines[0].hasPrefix("@8 superseded \"a\" (4 bytes): 036f6e65"))
        #expect(textLines[3].hasPrefix("@\(offsets[3]) deleted \"n\" tombstone"))
    }

    @Test("MMKV's deleted fixture: its live entries are MMKV's dump, the overwritten value and the tombstone remain")
    func deletedFixture() throws {
        let directory = try MMKVFixtures.copyStore("deleted")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try KvstoreRunner.run(["--dir", directory, "--id", "deleted", "dump", "--history", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try Self.objects(result.stdout)
        let live = lines.filter { $0["state"] as? String == "live" }
        let expected = try FixtureDumpEntry.load("deleted")
        #expect(live.count == expected.count)
        let liveHex = Dictionary(live.map { ($0["key"] as! String, $0["raw_hex"] as! String) }, uniquingKeysWith: { $1 })
        for entry in expected { #expect(liveHex[entry.key] == entry.rawHex, "\(entry.key)") }
        #expect(lines.contains { $0["state"] as? String == "superseded" })
        #expect(lines.contains { $0["tombstone"] as? Bool == true && $0["state"] as? String == "deleted" })
    }

    @Test("MMKV's expire fixture: expired keys are marked expired, with their expire-at times")
    func expireFixture() throws {
        let directory = try MMKVFixtures.copyStore("expire")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try KvstoreRunner.run(["--dir", directory, "--id", "expire", "dump", "--history", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try Self.objects(result.stdout)
        #expect(lines.count == 100)
        let now = UInt32(Date().timeIntervalSince1970)
        for line in lines {
            let expireAt = try #require(line["expireAt"] as? Int)
            let expired = expireAt != 0 && UInt32(expireAt) <= now
            #expect(line["state"] as? String == (expired ? "expired" : "live"), "\(line["key"] ?? "")")
        }
    }
}
