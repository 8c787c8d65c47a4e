@_exported import CofferErrors

/// The one error type of ASN1Kit, in the shape every Coffer error has (``CofferError``).
///
/// Every failure names what went wrong (``code``), where (``offset``, the byte offset into the input
/// the reader was given) and why, in words (``reason``). Equality compares the code only, as for
/// every Coffer error, so tests can match an error without depending on the wording; a test that
/// cares where checks ``offset``.
///
/// Messages never contain the content bytes of the input: they may be key material.
public struct ASN1Error: ModuleError, Hashable {
    /// What kind of rule the input broke. Opaque so that new codes can be added.
    public typealias Code = ErrorCode<ASN1Error>

    /// The code, reason, context, cause and origin (``CofferErrors/ModuleError``).
    public var parts: ErrorParts<Code>

    /// Creates an error from its parts (call sites use the labelled form, see ``CofferErrors/ModuleError``).
    public init(parts: ErrorParts<Code>) { self.parts = parts }

}

extension ErrorCode where Domain == ASN1Error {
    /// The input ended inside an identifier, a length or a value.
    public static var truncated: Self { Self() }
    /// A declared length runs past the end of the input or of the enclosing value.
    public static var lengthOverrun: Self { Self() }
    /// A length that DER requires in a shorter form.
    public static var nonMinimalLength: Self { Self() }
    /// The indefinite length form (0x80), which DER forbids.
    public static var indefiniteLength: Self { Self() }
    /// A length octet that no encoding allows (0xFF), or one too large for this machine.
    public static var invalidLength: Self { Self() }
    /// Bytes after the last complete value.
    public static var trailingData: Self { Self() }
    /// Values nested deeper than the configured limit.
    public static var depthExceeded: Self { Self() }
    /// A high tag number written with more octets than needed, or one that does not fit.
    public static var invalidTag: Self { Self() }
    /// A value whose tag is not the one the grammar expects.
    public static var unexpectedTag: Self { Self() }
    /// A constructed encoding where DER requires primitive, or the other way round.
    public static var invalidConstruction: Self { Self() }
    /// A BOOLEAN that is not exactly one octet of 0x00 or 0xFF.
    public static var invalidBoolean: Self { Self() }
    /// An INTEGER that is empty or not in minimal two's complement form.
    public static var invalidInteger: Self { Self() }
    /// A negative INTEGER where only non-negative numbers are allowed.
    public static var negativeInteger: Self { Self() }
    /// An INTEGER too large for the requested type.
    public static var integerOverflow: Self { Self() }
    /// A NULL with content.
    public static var invalidNull: Self { Self() }
    /// A BIT STRING with a bad unused-bits octet or non-zero padding bits.
    public static var invalidBitString: Self { Self() }
    /// An OBJECT IDENTIFIER that is empty, truncated or not minimally encoded.
    public static var invalidObjectIdentifier: Self { Self() }
    /// A string with a character its type does not allow.
    public static var invalidString: Self { Self() }
    /// A UTCTime or GeneralizedTime not in the DER form.
    public static var invalidTime: Self { Self() }
    /// A SET OF whose elements are not in ascending DER order.
    public static var unsortedSet: Self { Self() }
    /// A PEM document that is malformed.
    public static var invalidPEM: Self { Self() }
    /// Base64 text that is malformed.
    public static var invalidBase64: Self { Self() }
}
