/// Where and why JSON text failed to parse.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The byte offset of the problem in the parsed text.
    public var offset: Int
    /// What is wrong there.
    public var reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "JSON is malformed at offset \(offset): \(reason)" }
}
