import AsymmetricKeys

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
        JSONValue.quote(text)
    }
}
