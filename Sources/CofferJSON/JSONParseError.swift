@_exported import CofferErrors

/// Where and why JSON text failed to parse: CofferJSON's one error type, in the shape every Coffer
/// error has (``CofferError``).
///
/// Equality compares the ``code`` only, as for every Coffer error; ``offset`` and ``reason`` are
/// read on their own.
public struct JSONParseError: ModuleError, Hashable {
    /// What rule of RFC 8259 (or of the parser's options) the text broke. Opaque so that new codes
    /// can be added.
    public typealias Code = ErrorCode<JSONParseError>

    /// The code, reason, context, cause and origin (``CofferErrors/ModuleError``).
    public var parts: ErrorParts<Code>

    /// Creates an error from its parts (call sites use the labelled form, see ``CofferErrors/ModuleError``).
    public init(parts: ErrorParts<Code>) { self.parts = parts }

    /// `JSON is malformed at offset N: reason`.
    public var description: String { "JSON is malformed at offset \(offset ?? 0): \(reason)" }
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
