/// A JSON object built member by member in insertion order, for the tools' JSON Lines output;
/// `nil` values are left out (a field that does not apply is absent, not `null`). Written through
/// ``JSONValue``, the one JSON writer.
package struct JSONObject: Sendable {
    private var members: [JSONValue.Member] = []

    package init() {}

    /// Adds `key` with `value`, unless `value` is `nil`.
    package mutating func set(_ key: String, _ value: JSONValue?) {
        guard let value else { return }
        members.append(.init(key, value))
    }

    package mutating func set(_ key: String, _ value: String?) {
        set(key, value.map(JSONValue.string))
    }

    /// An integer, written in decimal.
    package mutating func set(_ key: String, _ value: (some BinaryInteger)?) {
        set(key, value.map { JSONValue.number(String($0)) })
    }

    package mutating func set(_ key: String, _ value: Bool?) {
        set(key, value.map(JSONValue.bool))
    }

    package mutating func set(_ key: String, _ value: [String]?) {
        set(key, value.map { JSONValue.array($0.map(JSONValue.string)) })
    }

    /// A nested object.
    package mutating func set(_ key: String, _ value: JSONObject?) {
        set(key, value?.value)
    }

    /// Whether no member was set.
    package var isEmpty: Bool { members.isEmpty }

    /// The object as a value.
    package var value: JSONValue { .object(members) }

    /// The object on one line.
    package var line: String { value.serialized }
}
