import CofferErrors

/// Where and why JSON text failed to parse: CofferJSON's one error type, in the shape every Coffer
/// error has (``CofferError``).
///
/// Equality compares the ``code`` only, as for every Coffer error; ``offset`` and ``reason`` are
/// read on their own.
public struct JSONParseError: ModuleError, Hashable {
    /// What rule of RFC 8259 (or of the parser's options) the text broke. Opaque so that new codes
    /// can be added.
    public typealias Code = ErrorCode<JSONParseError>

    /// What rule the text broke.
    public var code: Code
    /// What is wrong there.
    public var reason: String
    /// Where: the byte offset of the problem in the parsed text.
    public var context: ErrorContext
    /// Always `nil`: a parse error wraps no other error.
    public var cause: (any Error & Sendable)?
    /// Where in CofferJSON the error was raised.
    public let raisedAt: CodeLocation

    /// Creates an error from all its parts (call sites use the labelled form, see ``CofferError``).
    public init(_ code: Code, _ reason: String, context: ErrorContext, cause: (any Error & Sendable)?, raisedAt: CodeLocation) {
        self.code = code
        self.reason = reason
        self.context = context
        self.cause = cause
        self.raisedAt = raisedAt
    }

    /// The byte offset of the problem (``context``'s; 0 when unknown).
    public var offset: Int { context.offset ?? 0 }

    /// `JSON is malformed at offset N: reason`.
    public var description: String { "JSON is malformed at offset \(offset): \(reason)" }
}

extension ErrorCode where Domain == JSONParseError {
    /// The text breaks the grammar: an unexpected character, a missing `:`, `,` or bracket.
    public static var malformed: Self { Self() }
    /// The text ends inside a value.
    public static var truncated: Self { Self() }
    /// Text other than whitespace follows the value.
    public static var trailingData: Self { Self() }
    /// Objects and arrays nest deeper than ``JSONParser/Options/maximumDepth``.
    public static var depthExceeded: Self { Self() }
    /// An object names a member twice (unless ``JSONParser/Options/allowsDuplicateMembers``).
    public static var duplicateMember: Self { Self() }
    /// A number without RFC 8259's shape (leading zero, missing digits).
    public static var invalidNumber: Self { Self() }
    /// A string with invalid UTF-8, a control character or a bad escape.
    public static var invalidString: Self { Self() }
}
