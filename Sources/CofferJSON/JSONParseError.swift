import CofferErrors

/// Where and why JSON text failed to parse: CofferJSON's one error type, in the shape every Coffer
/// error has (``CofferError``).
///
/// Equality compares the ``code`` only, as for every Coffer error; ``offset`` and ``reason`` are
/// read on their own.
public struct JSONParseError: CofferError, Hashable {
    /// What rule of RFC 8259 (or of the parser's options) the text broke. Opaque so that new codes
    /// can be added.
    public struct Code: CofferErrorCode {
        /// The code's name, spelled as its static constant.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// The text breaks the grammar: an unexpected character, a missing `:`, `,` or bracket.
        public static let malformed = Code("malformed")
        /// The text ends inside a value.
        public static let truncated = Code("truncated")
        /// Text other than whitespace follows the value.
        public static let trailingData = Code("trailingData")
        /// Objects and arrays nest deeper than ``JSONParser/Options/maximumDepth``.
        public static let depthExceeded = Code("depthExceeded")
        /// An object names a member twice (unless ``JSONParser/Options/allowsDuplicateMembers``).
        public static let duplicateMember = Code("duplicateMember")
        /// A number without RFC 8259's shape (leading zero, missing digits).
        public static let invalidNumber = Code("invalidNumber")
        /// A string with invalid UTF-8, a control character or a bad escape.
        public static let invalidString = Code("invalidString")
    }

    /// What rule the text broke.
    public var code: Code
    /// The byte offset of the problem in the parsed text.
    public var offset: Int
    /// What is wrong there.
    public var reason: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The rule broken; ``Code-swift.struct/malformed`` when none is more precise.
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
