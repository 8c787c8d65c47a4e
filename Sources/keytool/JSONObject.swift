/// A JSON object that keeps its fields in insertion order, for stable JSON Lines output.
struct JSONObject {
    private var fields: [(String, String)] = []

    mutating func set(_ key: String, _ value: String?) {
        guard let value else { return }
        fields.append((key, JSONObject.quote(value)))
    }

    mutating func set(_ key: String, _ value: Int?) {
        guard let value else { return }
        fields.append((key, String(value)))
    }

    mutating func set(_ key: String, _ value: Bool?) {
        guard let value else { return }
        fields.append((key, value ? "true" : "false"))
    }

    mutating func set(_ key: String, _ value: [String]?) {
        guard let value else { return }
        fields.append((key, "[" + value.map(JSONObject.quote).joined(separator: ",") + "]"))
    }

    /// A nested object.
    mutating func set(_ key: String, _ value: JSONObject?) {
        guard let value else { return }
        fields.append((key, value.line))
    }

    /// Whether no field was set.
    var isEmpty: Bool { fields.isEmpty }

    /// The object on one line.
    var line: String {
        "{" + fields.map { "\(JSONObject.quote($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let s where s.value < 0x20:
                let hex = String(s.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
