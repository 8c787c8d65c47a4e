import CofferTestSupport
import Foundation
import Testing

@testable import KVStorage

/// Paths and helpers shared by the KVStorage tests. Fixtures come from the repository's
/// `Fixtures/mmkv/` (copies of stores written by the real Tencent MMKV).
enum TestSupport {
    static func removeDirectory(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    static func read(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}

/// One line of a fixture dump (`ID.dump.jsonl`).
struct DumpEntry {
    var key: String
    var rawHex: String
    var type: String?
    /// The JSON text of `value` exactly as written (integers keep full precision).
    var valueText: String?
    var value: Any?
    var expireAt: UInt32?
}

/// A fixture dump: the meta line, one entry per live key, and the summary.
struct FixtureDump {
    var meta: [String: Any]
    var entries: [DumpEntry]
    var summary: [String: Any]

    init(id: String) throws {
        let url = MMKVFixtures.directory.appendingPathComponent(id + ".dump.jsonl")
        let text = try String(contentsOf: url, encoding: .utf8)
        var meta: [String: Any] = [:]
        var summary: [String: Any] = [:]
        var entries: [DumpEntry] = []
        for line in text.split(separator: "\n") where !line.isEmpty {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            if let value = object["meta"] as? [String: Any] {
                meta = value
            } else if let value = object["summary"] as? [String: Any] {
                summary = value
            } else {
                var entry = DumpEntry(key: object["key"] as! String, rawHex: object["raw_hex"] as! String)
                entry.type = object["type"] as? String
                entry.value = object["value"]
                entry.valueText = FixtureDump.valueText(in: String(line))
                entry.expireAt = (object["expire_at"] as? NSNumber)?.uint32Value
                entries.append(entry)
            }
        }
        self.meta = meta
        self.entries = entries
        self.summary = summary
    }

    /// The raw JSON text after `"value":` up to the closing brace (for exact integers).
    private static func valueText(in line: String) -> String? {
        guard let range = line.range(of: "\"value\":", options: .backwards) else { return nil }
        var text = String(line[range.upperBound...])
        if text.hasSuffix("}") { text.removeLast() }
        return text
    }
}
