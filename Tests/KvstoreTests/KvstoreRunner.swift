import CofferTestSupport
import Foundation

/// What one run of the `kvstore` binary produced.
struct KvstoreResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the built `kvstore` (next to the test runner in the build products folder) against stores in
/// temporary directories.
enum KvstoreRunner {
    static let productsDirectory = ToolProcess.productsDirectory

    /// Runs `kvstore` with `arguments`, feeding `stdin` if given. `KVSTORE_DIR` of the test
    /// environment is not passed on.
    static func run(_ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String] = [:]) throws -> KvstoreResult {
        let output = try ToolProcess.run(productsDirectory.appendingPathComponent("kvstore"), arguments, stdin: stdin,
                                         environment: environment, removingEnvironment: ["KVSTORE_DIR"])
        return KvstoreResult(status: output.status, stdout: output.text, stderr: output.stderr)
    }

    /// The bytes of a file.
    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Writes `text` to a new file in `directory` and returns its path.
    static func writeFile(_ text: String, named name: String, in directory: String) throws -> String {
        let path = directory + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// One key of a fixture's MMKV dump: its type name (`i32`, `str`, …), raw payload hex and the JSON
/// text of its value exactly as the dump has it.
struct FixtureDumpEntry {
    var key: String
    var type: String
    var rawHex: String
    var valueJSON: String

    /// The `kvstore` type name for the dump's type name.
    var kvstoreType: String {
        ["i32": "int32", "u32": "uint32", "i64": "int64", "u64": "uint64", "bool": "bool", "f32": "float",
         "f64": "double", "str": "string", "bytes": "bytes", "vec": "strings"][type] ?? type
    }

    /// What `kvstore get --type T` must print (without the newline): strings unquoted, the rest as
    /// the dump's JSON text.
    var expectedText: String {
        if valueJSON.hasPrefix("\""),
            let decoded = try? JSONSerialization.jsonObject(with: Data(valueJSON.utf8), options: .fragmentsAllowed) as? String
        {
            return decoded
        }
        return valueJSON
    }

    /// Whether `output` (what `kvstore get` printed, without the newline) is this entry's value.
    /// MMKV's dump prints doubles with up to 17 digits (`10.500999999999999`) where kvstore prints the
    /// shortest form that reads back to the same bits (`10.501`): floats compare by bit pattern and
    /// must be no longer than the dump's text; everything else compares as text.
    func matches(_ output: String) -> Bool {
        switch type {
        case "f64":
            guard let expected = Double(valueJSON), let actual = Double(output) else { return false }
            return expected.bitPattern == actual.bitPattern && output.count <= valueJSON.count
        case "f32":
            guard let expected = Float(valueJSON), let actual = Float(output) else { return false }
            return expected.bitPattern == actual.bitPattern && output.count <= valueJSON.count
        default:
            return output == expectedText
        }
    }

    /// Every key line of `ID.dump.jsonl`.
    static func load(_ id: String) throws -> [FixtureDumpEntry] {
        let text = try String(contentsOf: MMKVFixtures.directory.appendingPathComponent(id + ".dump.jsonl"), encoding: .utf8)
        var entries: [FixtureDumpEntry] = []
        for line in text.split(separator: "\n") where line.hasPrefix("{\"key\":") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            guard let type = object["type"] as? String else { continue }
            // The value is the line's last member: take its JSON text verbatim.
            guard let range = line.range(of: "\"type\":\"\(type)\",\"value\":", options: .backwards) else { continue }
            let valueJSON = String(line[range.upperBound...].dropLast())
            entries.append(FixtureDumpEntry(key: object["key"] as! String, type: type, rawHex: object["raw_hex"] as! String, valueJSON: valueJSON))
        }
        return entries
    }
}
