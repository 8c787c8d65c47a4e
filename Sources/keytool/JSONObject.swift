import CofferJSON

/// A JSON object built field by field in insertion order, for stable JSON Lines output; `nil`
/// values are left out. Written through ``JSONValue``, the one JSON writer.
struct JSONObject {
    private var members: [JSONValue.Member] = []

    mutating func set(_ key: String, _ value: String?) {
        guard let value else { return }
        members.append(.init(key, .string(value)))
    }

    mutating func set(_ key: String, _ value: Int?) {
        guard let value else { return }
        members.append(.init(key, .number(String(value))))
    }

    mutating func set(_ key: String, _ value: Bool?) {
        guard let value else { return }
        members.append(.init(key, .bool(value)))
    }

    mutating func set(_ key: String, _ value: [String]?) {
        guard let value else { return }
        members.append(.init(key, .array(value.map(JSONValue.string))))
    }

    /// A nested object.
    mutating func set(_ key: String, _ value: JSONObject?) {
        guard let value else { return }
        members.append(.init(key, value.value))
    }

    /// Whether no field was set.
    var isEmpty: Bool { members.isEmpty }

    /// The object as a value.
    var value: JSONValue { .object(members) }

    /// The object on one line.
    var line: String { value.serialized }
}
