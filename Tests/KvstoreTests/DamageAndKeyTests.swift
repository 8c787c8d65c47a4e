import CofferTestSupport
import Foundation
import Testing

/// Damaged stores and wrong crypt keys: exit 1 with the reason, files untouched.
@Suite("damage and wrong keys")
struct DamageAndKeyTests {
    @Test("verify on a store with a flipped data byte exits 1 with the CRC mismatch; files untouched")
    func verifyDamaged() throws {
        let directory = try MMKVFixtures.copyStore("plain")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let data = directory + "/plain"
        var bytes = try KvstoreRunner.bytes(data)
        bytes[100] ^= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: data))
        let meta = try KvstoreRunner.bytes(data + ".crc")
        let verify = try KvstoreRunner.run(["--dir", directory, "--id", "plain", "verify"])
        #expect(verify.status == 1)
        #expect(verify.stdout.isEmpty)
        #expect(verify.stderr.hasPrefix("kvstore: error: "))
        #expect(verify.stderr.contains("CRC mismatch"))
        // Neither reading nor writing touches the damaged files.
        #expect(try KvstoreRunner.run(["--dir", directory, "--id", "plain", "get", "str_106"]).status == 1)
        let set = try KvstoreRunner.run(["--dir", directory, "--id", "plain", "set", "new", "value"])
        #expect(set.status == 1)
        #expect(set.stderr.contains("CRC mismatch"))
        #expect(try KvstoreRunner.bytes(data) == bytes)
        #expect(try KvstoreRunner.bytes(data + ".crc") == meta)
    }

    @Test("verify on a store whose meta claims too much data exits 1")
    func verifyTruncated() throws {
        let directory = try MMKVFixtures.copyStore("plain")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(try KvstoreRunner.bytes(directory + "/plain").prefix(2048)).write(to: URL(fileURLWithPath: directory + "/plain"))
        let verify = try KvstoreRunner.run(["--dir", directory, "--id", "plain", "verify"])
        #expect(verify.status == 1)
        #expect(verify.stderr.hasPrefix("kvstore: error: "))
        #expect(verify.stderr.count > "kvstore: error: \n".count)
    }

    @Test("a wrong crypt key exits 1 for reads and writes and leaves the files byte-identical", arguments: ["aes128", "aes256"])
    func wrongKey(id: String) throws {
        let directory = try MMKVFixtures.copyStore(id)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let data = try KvstoreRunner.bytes(directory + "/" + id)
        let meta = try KvstoreRunner.bytes(directory + "/" + id + ".crc")
        var options = ["--dir", directory, "--id", id, "--crypt-key-env", "WRONG_KEY"]
        if id == "aes256" { options.append("--aes256") }
        let environment = ["WRONG_KEY": "not-the-right-key-0123456789abcdef"]
        for command in [["get", "str_106"], ["list"], ["set", "k", "v"], ["delete", "str_106"], ["compact"], ["verify"], ["export"]] {
            let result = try KvstoreRunner.run(options + command, environment: environment)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.hasPrefix("kvstore: error: "), "\(command)")
            #expect(result.stderr.contains("crypt key"), "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("not-the-right-key"))
            #expect(result.stdout.isEmpty, "\(command)")
        }
        // No key at all for an encrypted store is an error too.
        #expect(try KvstoreRunner.run(["--dir", directory, "--id", id, "set", "k", "v"]).status == 1)
        #expect(try KvstoreRunner.bytes(directory + "/" + id) == data)
        #expect(try KvstoreRunner.bytes(directory + "/" + id + ".crc") == meta)
    }

    @Test("an unset key variable or unreadable key file is an error")
    func missingKeySource() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let env = try KvstoreRunner.run(["--dir", directory, "--crypt-key-env", "KVSTORE_TEST_UNSET_VARIABLE", "count"])
        #expect(env.status == 1)
        #expect(env.stderr.contains("KVSTORE_TEST_UNSET_VARIABLE"))
        let file = try KvstoreRunner.run(["--dir", directory, "--crypt-key-file", directory + "/none", "count"])
        #expect(file.status == 1)
    }

    @Test("a crypt key file is the whole file less one trailing LF or CR LF; an empty key is refused")
    func keyFileContents() throws {
        let directory = try MMKVFixtures.copyStore("aes256")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let options = ["--dir", directory, "--id", "aes256", "--aes256"]
        var counts: [String] = []
        for (name, contents) in [("lf", "coffer-fixture-aes256-key-32byte\n"), ("crlf", "coffer-fixture-aes256-key-32byte\r\n"),
                                 ("bare", "coffer-fixture-aes256-key-32byte")] {
            let file = try KvstoreRunner.writeFile(contents, named: name, in: directory)
            let result = try KvstoreRunner.run(options + ["--crypt-key-file", file, "count"])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            counts.append(result.stdout)
        }
        #expect(Set(counts).count == 1)
        // Only one newline goes: a second is part of the key (as the same key from the environment).
        let store = ["--dir", directory, "--id", "newline"]
        let twoNewlines = try KvstoreRunner.writeFile("kq7-key\n\n", named: "two", in: directory)
        #expect(try KvstoreRunner.run(store + ["--crypt-key-file", twoNewlines, "set", "k", "v"]).status == 0)
        let same = try KvstoreRunner.run(store + ["--crypt-key-env", "KQ7_KEY", "get", "k"], environment: ["KQ7_KEY": "kq7-key\n"])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout == "v\n")
        let oneNewline = try KvstoreRunner.writeFile("kq7-key\n", named: "one", in: directory)
        let wrong = try KvstoreRunner.run(store + ["--crypt-key-file", oneNewline, "get", "k"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.hasPrefix("kvstore: error: "))
        #expect(!wrong.stderr.contains("kq7"))
        let empty = try KvstoreRunner.writeFile("\n", named: "empty", in: directory)
        let refused = try KvstoreRunner.run(options + ["--crypt-key-file", empty, "count"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the crypt key is empty"))
    }
}
