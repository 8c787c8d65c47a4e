import CofferErrors

/// Where and why JSON text failed to parse: CofferJSON's one error type, in the shape every Coffer
/// error has (``CofferError``).
///
/// Equality compares the ``code`` only, as for every Coffer error; ``offset`` and ``reason`` are
/// read on their own.
public struct JSONParseError: CofferError, Hashable {
    /// What rule of RFC 8259 (or of the parser's options) the text broke. Opaque so that new codes
    /// can be added.
    public typealias Code = ErrorCode<JSONParseError>

    /// What rule the text broke.
    public var code: Code
    /// The byte offset of the problem in the parsed text.
    public var offset: Int
    /// What is wrong there.
    public var reason: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The rule broken; ``CofferErrors/ErrorCode/malformed`` when none is more precise.
    ///   - offset: The byte offset of the problem.
    ///   - reason: What is wrong there.
    public init(_ code: Code = .malformed, offset: Int, reason: String) {
        self.code = code
        self.offset = offset
        self.reason = reason
    }

    /// The byte offset (``offset``).
    public var context: ErrorContext { ErrorContext(offset: offset) }

    /// Always `nil`: a parse error wraps no other error.
    public var cause: (any Error & Sendable)? { nil }

    /// `JSON is malformed at offset N: reason`.
    public var description: String { "JSON is malformed at offset \(offset): \(reason)" }
}

extension ErrorCode where Domain == JSONParseError {
    /// The text breaks the grammar: an unexpected character, a missing `:`, `,` or bracket.
    public static var malformed: Self { Self("malformed") }
    /// The text ends inside a value.
    public static var truncated: Self { Self("truncated") }
    /// Text other than whitespace follows the value.
    public static var trailingData: Self { Self("trailingData") }
    /// Objects and arrays nest deeper than ``JSONParser/Options/maximumDepth``.
    public static var depthExceeded: Self { Self("depthExceeded") }
    /// An object names a member twice (unless ``JSONParser/Options/allowsDuplicateMembers``).
    public static var duplicateMember: Self { Self("duplicateMember") }
    /// A number without RFC 8259's shape (leading zero, missing digits).
    public static var invalidNumber: Self { Self("invalidNumber") }
    /// A string with invalid UTF-8, a control character or a bad escape.
    public static var invalidString: Self { Self("invalidString") }
}
