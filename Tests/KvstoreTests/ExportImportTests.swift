import CofferTestSupport
import Foundation
import Testing

/// `export` and `import`: JSON out and in, byte-exact round trips.
@Suite("export and import")
struct ExportImportTests {
    /// `dump --json` lines reduced to key → raw hex.
    static func rawValues(_ options: [String], environment: [String: String] = [:]) throws -> [String: String] {
        let dump = try KvstoreRunner.run(options + ["dump", "--json"], environment: environment)
        var values: [String: String] = [:]
        for line in dump.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            values[try #require(object["key"] as? String)] = try #require(object["raw_hex"] as? String)
        }
        return values
    }

    @Test("import(export(store)) restores every payload of the MMKV fixtures byte for byte", arguments: FixtureReadTests.stores)
    func fixtureRoundTrip(store: FixtureReadTests.Store) throws {
        let source = try MMKVFixtures.copyStore(store.id)
        let target = try TestScratch.directory("kvstore").path
        defer {
            try? FileManager.default.removeItem(atPath: source)
            try? FileManager.default.removeItem(atPath: target)
        }
        let options = try FixtureReadTests.options(store, source)
        let export = try KvstoreRunner.run(options + ["export"], environment: store.environment)
        #expect(export.status == 0, "\(export.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
        #expect(document.count == (try FixtureDumpEntry.load(store.id)).count)
        let imported = try KvstoreRunner.run(["--dir", target, "import", "-"], stdin: Array(export.stdout.utf8))
        #expect(imported.status == 0, "\(imported.stderr)")
        let original = try Self.rawValues(options, environment: store.environment)
        #expect(original.count == document.count)
        #expect(try Self.rawValues(["--dir", target]) == original)
        // The copy exports to the same document.
        #expect(try KvstoreRunner.run(["--dir", target, "export"]).stdout == export.stdout)
    }

    @Test("import(export(store)) restores every value written by kvstore set, of every type")
    func setValuesRoundTrip() throws {
        let source = try TestScratch.directory("kvstore").path
        let target = try TestScratch.directory("kvstore").path
        defer {
            try? FileManager.default.removeItem(atPath: source)
            try? FileManager.default.removeItem(atPath: target)
        }
        for (index, testCase) in SetGetTests.cases.enumerated() {
            let set = try KvstoreRunner.run(["--dir", source, "set", "k\(index)-\(testCase.type)", testCase.input, "--type", testCase.type])
            #expect(set.status == 0, "\(testCase): \(set.stderr)")
        }
        #expect(try KvstoreRunner.run(["--dir", source, "set", "temporary", "x", "--expire", "86400"]).status == 0)
        let export = try KvstoreRunner.run(["--dir", source, "export"])
        #expect(export.stdout.contains("\"temporary\": {\"type\":\"string\",\"value\":\"x\",\"expireAt\":"))
        let imported = try KvstoreRunner.run(["--dir", target, "import", "-"], stdin: Array(export.stdout.utf8))
        #expect(imported.status == 0, "\(imported.stderr)")
        let original = try Self.rawValues(["--dir", source])
        #expect(original.count == SetGetTests.cases.count + 1)
        #expect(try Self.rawValues(["--dir", target]) == original)
    }

    @Test("export guesses the type the fixture key was written with for strings, floats, doubles and bools")
    func exportTypes() throws {
        let source = try MMKVFixtures.copyStore("plain")
        defer { try? FileManager.default.removeItem(atPath: source) }
        let export = try KvstoreRunner.run(["--dir", source, "--id", "plain", "export"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: [String: Any]])
        let expected = ["str": "string", "f32": "float", "f64": "double", "bool": "bool", "vec": "strings", "i64": "int64"]
        for entry in try FixtureDumpEntry.load("plain") where entry.valueJSON != "\"\"" {
            guard let type = expected[entry.type] else { continue }
            #expect(document[entry.key]?["type"] as? String == type, "\(entry.key)")
        }
    }

    @Test("import takes plain strings and typed values; export writes the typed form")
    func importForms() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let json = """
            {"name": "Zoë", "n": {"type": "int32", "value": -5}, "big": {"type": "uint64", "value": "18446744073709551615"},
             "ratio": {"type": "double", "value": 0.25}, "flag": {"type": "bool", "value": true},
             "blob": {"type": "bytes", "value": "c0ffee"}, "list": {"type": "strings", "value": ["x", "y"]}}
            """
        let file = try KvstoreRunner.writeFile(json, named: "in.json", in: directory)
        let result = try KvstoreRunner.run(["--dir", directory, "import", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "imported 7 keys\n")
        let dir = ["--dir", directory]
        #expect(try KvstoreRunner.run(dir + ["get", "name"]).stdout == "Zoë\n")
        #expect(try KvstoreRunner.run(dir + ["get", "n", "--type", "int32"]).stdout == "-5\n")
        #expect(try KvstoreRunner.run(dir + ["get", "big", "--type", "uint64"]).stdout == "18446744073709551615\n")
        #expect(try KvstoreRunner.run(dir + ["get", "ratio", "--type", "double"]).stdout == "0.25\n")
        #expect(try KvstoreRunner.run(dir + ["get", "flag", "--type", "bool"]).stdout == "true\n")
        #expect(try KvstoreRunner.run(dir + ["get", "blob", "--type", "bytes"]).stdout == "c0ffee\n")
        #expect(try KvstoreRunner.run(dir + ["get", "list", "--type", "strings"]).stdout == "[\"x\",\"y\"]\n")
        let export = try KvstoreRunner.run(dir + ["export"]).stdout
        #expect(export.contains("\"name\": {\"type\":\"string\",\"value\":\"Zoë\"}"))
        #expect(export.contains("\"ratio\": {\"type\":\"double\",\"value\":0.25}"))
        #expect(export.contains("\"blob\": {\"type\":\"bytes\",\"value\":\"c0ffee\"}"))
    }

    @Test("malformed JSON or a bad value is refused and nothing is written")
    func importErrors() throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let malformed = try KvstoreRunner.run(["--dir", directory, "import", "-"], stdin: Array("{\"a\": ".utf8))
        #expect(malformed.status == 1)
        #expect(malformed.stderr.contains("malformed JSON at byte offset"))
        let bad = try KvstoreRunner.run(
            ["--dir", directory, "import", "-"], stdin: Array("{\"a\": \"x\", \"b\": {\"type\": \"int32\", \"value\": \"hidden-text\"}}".utf8))
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("\"b\""))
        #expect(!bad.stderr.contains("hidden-text"))
        #expect(try KvstoreRunner.run(["--dir", directory, "count"]).stdout == "0\n")
        let missing = try KvstoreRunner.run(["--dir", directory, "import", directory + "/absent.json"])
        #expect(missing.status == 1)
    }
}
