import CofferTestSupport
import Foundation
import KVStorage
import Testing

/// `kvstore get` of a value too large to copy comfortably (written straight from the mapping), and
/// of the byte 00, which no type can be told from.
@Suite("get: large and empty values")
struct LargeAndEmptyValueTests {
    static let largeSize = 50 * 1024 * 1024

    @Test("a 50 MB string, bytes or raw value streams from the mapping: peak memory at most 1.5x the value",
          arguments: ["string", "bytes", "raw"])
    func largeValue(type: String) throws {
        let directory = try TestScratch.directory("kvstore-large").path
        do {
            let store = try KVStore(KVStoreConfiguration(directory: directory))
            defer { store.close() }
            var value = [UInt8](repeating: UInt8(ascii: "a"), count: Self.largeSize)
            value[Self.largeSize - 1] = UInt8(ascii: "z")
            if type == "string" {
                try store.set(String(decoding: value, as: UTF8.self), forKey: "big")
            } else {
                try store.set(value, forKey: "big")
            }
        }
        let output = TestScratch.path("big.out")
        defer { unlink(output) }
        let arguments = ["--dir", directory, "get", "big"] + (type == "string" ? [] : ["--type", type])
        let run = try ToolProcess.runMeasuringPeakMemory(
            KvstoreRunner.productsDirectory.appendingPathComponent("kvstore"), arguments, stdoutPath: output)
        #expect(run.status == 0, "\(run.stderr)")
        let handle = try #require(FileHandle(forReadingAtPath: output))
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        // Bytes print as hex (two characters a byte); raw adds the 4-byte inner length prefix.
        let expected = type == "string" ? Self.largeSize + 1 : type == "bytes" ? 2 * Self.largeSize + 1 : 2 * (Self.largeSize + 4) + 1
        #expect(size == UInt64(expected))
        try handle.seek(toOffset: size - 3)
        let tail = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        #expect(tail == (type == "string" ? "az\n" : "7a\n"))
        #expect(Double(run.peakResidentBytes) <= 1.5 * Double(Self.largeSize), "peak \(run.peakResidentBytes) bytes")
    }

    @Test("the byte 00 prints as empty without --type, with a note on stderr; --type chooses")
    func emptyValue() throws {
        let directory = try TestScratch.directory("kvstore-empty").path
        for (key, input, type) in [("s", "", "string"), ("b", "false", "bool"), ("i", "0", "int64")] {
            let set = try KvstoreRunner.run(["--dir", directory, "set", key, input, "--type", type])
            #expect(set.status == 0, "\(set.stderr)")
        }
        for key in ["s", "b", "i"] {
            let get = try KvstoreRunner.run(["--dir", directory, "get", key])
            #expect(get.status == 0, "\(get.stderr)")
            #expect(get.stdout == "\n", "\(key)")
            #expect(get.stderr == "kvstore: note: the 1-byte value 00 reads as an empty string, false or 0; give --type to choose\n")
            let json = try KvstoreRunner.run(["--dir", directory, "get", key, "--json"])
            #expect(json.status == 0, "\(json.stderr)")
            #expect(json.stderr.isEmpty)
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
            #expect(object["type"] as? String == "ambiguous")
            #expect(object["value"] as? String == "")
            let candidates = try #require(object["candidates"] as? [String: Any])
            #expect(candidates["string"] as? String == "")
            #expect(candidates["bool"] as? Bool == false)
            #expect((candidates["int64"] as? NSNumber)?.intValue == 0)
        }
        #expect(try KvstoreRunner.run(["--dir", directory, "get", "s", "--type", "string"]).stdout == "\n")
        #expect(try KvstoreRunner.run(["--dir", directory, "get", "s", "--type", "bool"]).stdout == "false\n")
        #expect(try KvstoreRunner.run(["--dir", directory, "get", "s", "--type", "int64"]).stdout == "0\n")
        let typed = try KvstoreRunner.run(["--dir", directory, "get", "s", "--type", "string"])
        #expect(typed.stderr.isEmpty, "no note once the type is given")
        // dump says the same: the guess is "ambiguous" with the value "", every reading listed.
        let dump = try KvstoreRunner.run(["--dir", directory, "dump"])
        #expect(dump.stdout.contains("guess: ambiguous \"\" (confidence 0.50: "))
        #expect(dump.stdout.contains("  bool: false\n"))
        #expect(dump.stdout.contains("  string: \"\"\n"))
        // The byte 01 stays a bool.
        let one = try KvstoreRunner.run(["--dir", directory, "set", "t", "true", "--type", "bool"])
        #expect(one.status == 0)
        let getOne = try KvstoreRunner.run(["--dir", directory, "get", "t"])
        #expect(getOne.stdout == "true\n")
        #expect(getOne.stderr.isEmpty)
    }
}
