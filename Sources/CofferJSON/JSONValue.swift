/// A JSON value (RFC 8259) with object members in document order.
///
/// Numbers keep their literal text, so 64-bit integers and shortest-form floats pass through
/// without a lossy `Double` in between; a caller converts them when it needs a value.
public enum JSONValue: Sendable, Hashable {
    case object([Member])
    case array([JSONValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    /// One member of an object, with where its name starts in the input.
    public struct Member: Sendable, Hashable {
        public var name: String
        public var value: JSONValue
        /// The byte offset of the member's name in the parsed text (0 for values built in code).
        public var offset: Int

        public init(_ name: String, _ value: JSONValue, offset: Int = 0) {
            self.name = name
            self.value = value
            self.offset = offset
        }
    }

    /// An object from `(name, value)` pairs, in their order.
    public init(object pairs: [(String, JSONValue)]) {
        self = .object(pairs.map { Member($0.0, $0.1) })
    }

    /// The members, if this is an object.
    public var members: [Member]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The value of member `name`, if this is an object that has it.
    public subscript(name: String) -> JSONValue? {
        members?.first { $0.name == name }?.value
    }

    /// The text, if this is a string.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// What the value is, for error messages.
    public var kind: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}
