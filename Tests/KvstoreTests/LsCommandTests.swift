import CofferTestSupport
import Foundation
import Testing

/// `kvstore ls [DIR] [--json]`.
@Suite("ls command")
struct LsCommandTests {
    @Test("ls lists plain, encrypted and special-character stores, in text and JSON Lines")
    func listStores() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for id in ["plain", "aes128"] {
            try MMKVFixtures.copyStore(id, into: directory)
        }
        #expect(try KvstoreRunner.run(["--dir", directory, "--id", "a:b", "set", "k", "v"]).status == 0)
        let json = try KvstoreRunner.run(["ls", directory, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let objects = try json.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        #expect(objects.map { $0["id"] as? String }.prefix(2) == ["aes128", "plain"])
        #expect(objects[0]["probablyEncrypted"] as? Bool == true)
        #expect(objects[0]["liveKeys"] == nil)
        #expect(objects[1]["liveKeys"] as? Int == 210)
        #expect(objects[2]["hashedID"] as? Bool == true)
        #expect((objects[2]["path"] as? String)?.hasPrefix("specialCharacter/") == true)
        #expect(objects[2]["liveKeys"] as? Int == 1)

        let text = try KvstoreRunner.run(["--dir", directory, "ls"])
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0] == "aes128  4096 bytes  - keys  encrypted (guessed)  expiration off")
        #expect(lines[1] == "plain  4096 bytes  210 keys  plain  expiration off")
        #expect(lines[2].hasSuffix("4096 bytes  1 key  plain  expiration off"))
    }
}
