import CofferJSON

/// A protected header with the exact base64url text it travels as.
///
/// The JWS signing input (RFC 7515 §5.1) and the JWE additional authenticated data (RFC 7516 §5.1)
/// are computed over ``encoded``, the text as received; a header read from a token is never
/// serialized again, so a reader cannot be made to sign or check bytes other than those sent.
public struct ProtectedHeader: Sendable, Hashable {
    /// The header's members.
    public let header: JOSEHeader
    /// The base64url text of the header's UTF-8 JSON, as received or as made by ``init(_:)``.
    public let encoded: String

    /// Encodes `header` (compact JSON, members in order) for a new token.
    public init(_ header: JOSEHeader) {
        self.header = header
        self.encoded = Base64URL.encode(header.serialized)
    }

    /// Reads a protected header from its base64url text.
    ///
    /// - Parameters:
    ///   - encoded: The base64url text (a compact segment, or a JSON serialization's `protected`).
    ///   - what: The header for messages (`segment 1 (protected header)`).
    ///   - baseOffset: Where `encoded` starts in the caller's input.
    ///   - limits: The JSON nesting cap.
    /// - Throws: ``JOSEError`` `.malformed`: bad base64url (with the offset of the character), bad
    ///   JSON, not an object, a duplicate member, a registered member of the wrong type.
    public init<C: Collection<UInt8>>(encoded: C, what: String = "the protected header", baseOffset: Int = 0,
                                      limits: JOSELimits = .default) throws(JOSEError) {
        let json = try Base64URL.decode(encoded, what: what, baseOffset: baseOffset)
        self.header = try JOSEHeader(json: json, what: what, baseOffset: baseOffset, limits: limits)
        self.encoded = String(decoding: encoded, as: UTF8.self)
    }
}
