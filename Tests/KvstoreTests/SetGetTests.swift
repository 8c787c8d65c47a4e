import CofferTestSupport
import Foundation
import Testing

/// `kvstore set` then `get` for every type, and the float formatting.
@Suite("set and get")
struct SetGetTests {
    /// A type, the text given to `set` and what `get` must print.
    struct Case: CustomStringConvertible, Sendable {
        var type: String
        var input: String
        var output: String
        var description: String { "\(type) \(input)" }
    }

    static let cases: [Case] = [
        Case(type: "string", input: "hello wörld", output: "hello wörld"),
        Case(type: "string", input: "", output: ""),
        Case(type: "bytes", input: "00ff10", output: "00ff10"),
        Case(type: "bytes", input: "DEADBEEF", output: "deadbeef"),
        Case(type: "bytes", input: "", output: ""),
        Case(type: "int32", input: "-2147483648", output: "-2147483648"),
        Case(type: "int32", input: "2147483647", output: "2147483647"),
        Case(type: "uint32", input: "4294967295", output: "4294967295"),
        Case(type: "int64", input: "-9223372036854775808", output: "-9223372036854775808"),
        Case(type: "int64", input: "0", output: "0"),
        Case(type: "uint64", input: "18446744073709551615", output: "18446744073709551615"),
        Case(type: "bool", input: "true", output: "true"),
        Case(type: "bool", input: "false", output: "false"),
        Case(type: "float", input: "0.1", output: "0.1"),
        Case(type: "float", input: "3", output: "3"),
        Case(type: "float", input: "-0.75", output: "-0.75"),
        Case(type: "float", input: "16777217", output: "16777216"),
        Case(type: "float", input: "1e-45", output: "1e-45"),
        Case(type: "double", input: "0.1", output: "0.1"),
        Case(type: "double", input: "10.501", output: "10.501"),
        Case(type: "double", input: "1e300", output: "1e+300"),
        Case(type: "double", input: "-0", output: "-0"),
        Case(type: "double", input: "0.30000000000000004", output: "0.30000000000000004"),
        Case(type: "strings", input: "[\"a\",\"bb\",\"ccc\"]", output: "[\"a\",\"bb\",\"ccc\"]"),
        Case(type: "raw", input: "0102", output: "0102"),
    ]

    @Test("set then get --type T prints the value", arguments: cases)
    func roundTrip(_ testCase: Case) throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let set = try KvstoreRunner.run(["--dir", directory, "set", "k", testCase.input, "--type", testCase.type])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.isEmpty)
        let get = try KvstoreRunner.run(["--dir", directory, "get", "k", "--type", testCase.type])
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout == testCase.output + "\n")
    }

    @Test("doubles print in the shortest form that reads back to the same bits")
    func shortestDoubles() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Deterministic pseudo-random doubles and floats, given to set with 17 / 9 significant digits.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
        for index in 0..<8 {
            let double = Double(bitPattern: next() >> 2)  // positive, finite
            let float = Float(bitPattern: UInt32(truncatingIfNeeded: next() >> 34))
            let dir = ["--dir", directory]
            #expect(try KvstoreRunner.run(dir + ["set", "d\(index)", String(format: "%.17g", double), "--type", "double"]).status == 0)
            #expect(try KvstoreRunner.run(dir + ["set", "f\(index)", String(format: "%.9g", Double(float)), "--type", "float"]).status == 0)
            let doubleText = try KvstoreRunner.run(dir + ["get", "d\(index)", "--type", "double"]).stdout.dropLast()
            let floatText = try KvstoreRunner.run(dir + ["get", "f\(index)", "--type", "float"]).stdout.dropLast()
            #expect(Double(String(doubleText))?.bitPattern == double.bitPattern, "\(doubleText)")
            #expect(Float(String(floatText))?.bitPattern == float.bitPattern, "\(floatText)")
            // Swift's description is the shortest round-tripping form; kvstore drops only a trailing ".0".
            let expected = double.description.hasSuffix(".0") ? String(double.description.dropLast(2)) : double.description
            #expect(String(doubleText) == expected)
        }
    }

    @Test("set writes exactly the bytes MMKV writes for every fixture value")
    func setMatchesMMKVBytes() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let entries = FixtureReadTests.sample(try FixtureDumpEntry.load("plain"))
        for entry in entries where entry.type != "vec" {
            let set = try KvstoreRunner.run(["--dir", directory, "set", entry.key, entry.expectedText, "--type", entry.kvstoreType])
            #expect(set.status == 0, "\(entry.key): \(set.stderr)")
        }
        let dump = try KvstoreRunner.run(["--dir", directory, "dump", "--json"])
        for entry in entries where entry.type != "vec" {
            #expect(dump.stdout.contains("{\"key\":\(try jsonString(entry.key)),\"raw_hex\":\"\(entry.rawHex)\""), "\(entry.key)")
        }
    }

    @Test("--value-file stores a file's bytes; --expire enables expiration")
    func valueFileAndExpire() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/blob"
        try Data([0, 1, 2, 0xFF]).write(to: URL(fileURLWithPath: file))
        #expect(try KvstoreRunner.run(["--dir", directory, "set", "blob", "--value-file", file, "--type", "bytes"]).status == 0)
        #expect(try KvstoreRunner.run(["--dir", directory, "get", "blob", "--type", "bytes"]).stdout == "000102ff\n")
        let expire = try KvstoreRunner.run(["--dir", directory, "set", "temp", "soon", "--expire", "3600"])
        #expect(expire.status == 0, "\(expire.stderr)")
        #expect(try KvstoreRunner.run(["--dir", directory, "get", "temp"]).stdout == "soon\n")
        #expect(try KvstoreRunner.run(["--dir", directory, "stats"]).stdout.contains("expiration:    enabled"))
        #expect(try KvstoreRunner.run(["--dir", directory, "get", "blob", "--type", "bytes"]).stdout == "000102ff\n")
    }

    @Test("a value that does not parse as its type is refused without naming the value")
    func invalidValue() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try KvstoreRunner.run(["--dir", directory, "set", "n", "secret-not-a-number", "--type", "int64"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("kvstore: error: "))
        #expect(result.stderr.contains("\"n\""))
        #expect(!result.stderr.contains("secret-not-a-number"))
    }

    private func jsonString(_ text: String) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed, .withoutEscapingSlashes]), as: UTF8.self)
    }
}
