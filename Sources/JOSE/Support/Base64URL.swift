import ASN1Kit

/// base64url without padding (RFC 7515 §2) for JOSE: ASN1Kit's one codec (`Base64.encodeURL`,
/// `Base64.decodeURL`), with its errors reported as ``JOSEError`` naming the segment or member.
///
/// Decoding is strict: only the URL alphabet, no padding, no whitespace, no dangling character,
/// and the unused low bits of the last character zero, so every value has exactly one encoding.
enum Base64URL {
    /// The base64url text of `bytes`, without padding.
    static func encode<C: Collection<UInt8>>(_ bytes: C) -> String {
        Base64.encodeURL(bytes)
    }

    /// The bytes of base64url `text`.
    ///
    /// - Parameters:
    ///   - what: The segment or member for the message (`segment 2 (payload)`, `member "k"`).
    ///   - baseOffset: Where `text` starts in the caller's input; offsets in errors count from there.
    /// - Throws: ``JOSEError`` `.malformed` with the offset of the offending character.
    static func decode<C: Collection<UInt8>>(_ text: C, what: String, baseOffset: Int = 0) throws(JOSEError) -> [UInt8] {
        do {
            return try Base64.decodeURL(text, baseOffset: baseOffset)
        } catch let error as ASN1Error {
            throw JOSEError(.malformed, "\(what) is not base64url: \(error.reason)", offset: error.offset ?? baseOffset, cause: error)
        } catch {
            throw JOSEError(.malformed, "\(what) is not base64url", offset: baseOffset)
        }
    }

    /// The bytes of base64url `text` (a header member's value, say).
    static func decode(_ text: String, what: String, baseOffset: Int = 0) throws(JOSEError) -> [UInt8] {
        try decode(text.utf8, what: what, baseOffset: baseOffset)
    }

    /// The bytes of base64url `text`, the value of a JSON member whose name is at `memberOffset`:
    /// the error's offset is the member's, and the character offsets its reason gives count from
    /// the value's first character (the parser does not record where a value starts).
    static func decode(member text: String, what: String, memberOffset: Int) throws(JOSEError) -> [UInt8] {
        do {
            return try decode(Array(text.utf8), what: "\(what) (offset \(memberOffset); character offsets within its value)")
        } catch {
            var located = error
            located.offset = memberOffset
            throw located
        }
    }
}
