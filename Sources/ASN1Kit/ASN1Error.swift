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
    public typealias Code = ErrorCode<ASN1Error>

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

extension ErrorCode where Domain == ASN1Error {
    /// The input ended inside an identifier, a length or a value.
    public static var truncated: Self { Self("truncated") }
    /// A declared length runs past the end of the input or of the enclosing value.
    public static var lengthOverrun: Self { Self("lengthOverrun") }
    /// A length that DER requires in a shorter form.
    public static var nonMinimalLength: Self { Self("nonMinimalLength") }
    /// The indefinite length form (0x80), which DER forbids.
    public static var indefiniteLength: Self { Self("indefiniteLength") }
    /// A length octet that no encoding allows (0xFF), or one too large for this machine.
    public static var invalidLength: Self { Self("invalidLength") }
    /// Bytes after the last complete value.
    public static var trailingData: Self { Self("trailingData") }
    /// Values nested deeper than the configured limit.
    public static var depthExceeded: Self { Self("depthExceeded") }
    /// A high tag number written with more octets than needed, or one that does not fit.
    public static var invalidTag: Self { Self("invalidTag") }
    /// A value whose tag is not the one the grammar expects.
    public static var unexpectedTag: Self { Self("unexpectedTag") }
    /// A constructed encoding where DER requires primitive, or the other way round.
    public static var invalidConstruction: Self { Self("invalidConstruction") }
    /// A BOOLEAN that is not exactly one octet of 0x00 or 0xFF.
    public static var invalidBoolean: Self { Self("invalidBoolean") }
    /// An INTEGER that is empty or not in minimal two's complement form.
    public static var invalidInteger: Self { Self("invalidInteger") }
    /// A negative INTEGER where only non-negative numbers are allowed.
    public static var negativeInteger: Self { Self("negativeInteger") }
    /// An INTEGER too large for the requested type.
    public static var integerOverflow: Self { Self("integerOverflow") }
    /// A NULL with content.
    public static var invalidNull: Self { Self("invalidNull") }
    /// A BIT STRING with a bad unused-bits octet or non-zero padding bits.
    public static var invalidBitString: Self { Self("invalidBitString") }
    /// An OBJECT IDENTIFIER that is empty, truncated or not minimally encoded.
    public static var invalidObjectIdentifier: Self { Self("invalidObjectIdentifier") }
    /// A string with a character its type does not allow.
    public static var invalidString: Self { Self("invalidString") }
    /// A UTCTime or GeneralizedTime not in the DER form.
    public static var invalidTime: Self { Self("invalidTime") }
    /// A SET OF whose elements are not in ascending DER order.
    public static var unsortedSet: Self { Self("unsortedSet") }
    /// A PEM document that is malformed.
    public static var invalidPEM: Self { Self("invalidPEM") }
    /// Base64 text that is malformed.
    public static var invalidBase64: Self { Self("invalidBase64") }
}
