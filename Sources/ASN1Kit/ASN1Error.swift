import CofferErrors

/// The one error type of ASN1Kit, in the shape every Coffer error has (``CofferError``).
///
/// Every failure names what went wrong (``code``), where (``offset``, the byte offset into the input
/// the reader was given) and why, in words (``reason``). Equality compares the code only, as for
/// every Coffer error, so tests can match an error without depending on the wording; a test that
/// cares where checks ``offset``.
///
/// Messages never contain the content bytes of the input: they may be key material.
public struct ASN1Error: CofferError, Hashable {
    /// What kind of rule the input broke. Opaque so that new codes can be added.
    public struct Code: CofferErrorCode {
        /// The code's name, spelled as its static constant.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// The input ended inside an identifier, a length or a value.
        public static let truncated = Code("truncated")
        /// A declared length runs past the end of the input or of the enclosing value.
        public static let lengthOverrun = Code("lengthOverrun")
        /// A length that DER requires in a shorter form.
        public static let nonMinimalLength = Code("nonMinimalLength")
        /// The indefinite length form (0x80), which DER forbids.
        public static let indefiniteLength = Code("indefiniteLength")
        /// A length octet that no encoding allows (0xFF), or one too large for this machine.
        public static let invalidLength = Code("invalidLength")
        /// Bytes after the last complete value.
        public static let trailingData = Code("trailingData")
        /// Values nested deeper than the configured limit.
        public static let depthExceeded = Code("depthExceeded")
        /// A high tag number written with more octets than needed, or one that does not fit.
        public static let invalidTag = Code("invalidTag")
        /// A value whose tag is not the one the grammar expects.
        public static let unexpectedTag = Code("unexpectedTag")
        /// A constructed encoding where DER requires primitive, or the other way round.
        public static let invalidConstruction = Code("invalidConstruction")
        /// A BOOLEAN that is not exactly one octet of 0x00 or 0xFF.
        public static let invalidBoolean = Code("invalidBoolean")
        /// An INTEGER that is empty or not in minimal two's complement form.
        public static let invalidInteger = Code("invalidInteger")
        /// A negative INTEGER where only non-negative numbers are allowed.
        public static let negativeInteger = Code("negativeInteger")
        /// An INTEGER too large for the requested type.
        public static let integerOverflow = Code("integerOverflow")
        /// A NULL with content.
        public static let invalidNull = Code("invalidNull")
        /// A BIT STRING with a bad unused-bits octet or non-zero padding bits.
        public static let invalidBitString = Code("invalidBitString")
        /// An OBJECT IDENTIFIER that is empty, truncated or not minimally encoded.
        public static let invalidObjectIdentifier = Code("invalidObjectIdentifier")
        /// A string with a character its type does not allow.
        public static let invalidString = Code("invalidString")
        /// A UTCTime or GeneralizedTime not in the DER form.
        public static let invalidTime = Code("invalidTime")
        /// A SET OF whose elements are not in ascending DER order.
        public static let unsortedSet = Code("unsortedSet")
        /// A PEM document that is malformed.
        public static let invalidPEM = Code("invalidPEM")
        /// Base64 text that is malformed.
        public static let invalidBase64 = Code("invalidBase64")
    }

    /// What kind of rule the input broke.
    public let code: Code
    /// Byte offset into the input where the problem starts, when known.
    public let offset: Int?
    /// A sentence that explains the problem, including the offset.
    public let reason: String
    /// Where in ASN1Kit the error was raised (for bug reports).
    public let file: String
    /// Line in ``file``.
    public let line: Int
    /// The error this one wraps, if any.
    public let cause: (any Error & Sendable)?

    /// Creates an error. `reason` should already mention the offset where helpful.
    public init(
        _ code: Code, at offset: Int?, _ reason: String, cause: (any Error & Sendable)? = nil,
        file: String = #fileID, line: Int = #line
    ) {
        self.code = code
        self.offset = offset
        self.reason = reason
        self.cause = cause
        self.file = file
        self.line = line
    }

    /// The byte offset (``offset``).
    public var context: ErrorContext { ErrorContext(offset: offset) }

    /// The ``reason``.
    public var description: String { reason }
}
