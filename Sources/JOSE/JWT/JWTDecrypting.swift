/// Decrypts the outer JWE of a nested JWT (RFC 7519 §5.2, §7.2 step 8: signed, then encrypted,
/// with `cty: JWT`). JWE provides a conforming type; JWT uses it without depending on how.
public protocol JWTDecrypting: Sendable {
    /// The JWE's JOSE header and plaintext, once decrypted and its integrity checked.
    ///
    /// - Parameter compactJWE: The JWE in the compact serialization (five segments).
    /// - Throws: ``JOSEError`` (`.decryptionFailed`, `.malformed`, …).
    func decrypt(compactJWE: String) throws(JOSEError) -> (header: JOSEHeader, plaintext: [UInt8])
}

extension JWT {
    /// Verifies a nested JWT: decrypts the outer JWE with `decryptor`, checks that its `cty` is
    /// `JWT`, then verifies the inner signed JWT with `keySet` and validates its claims.
    ///
    /// - Throws: ``JOSEError`` `.malformed` when the token is not a JWE or its `cty` is not `JWT`;
    ///   the decryptor's errors; those of ``init(verifying:with:allowedAlgorithms:validator:limits:)-(_,JOSEKeySet,_,_,_)``.
    public init(verifyingNested token: String, decryptor: some JWTDecrypting, with keySet: JOSEKeySet,
                allowedAlgorithms: Set<JWSAlgorithm>? = nil, validator: JWTValidator = JWTValidator(),
                limits: JOSELimits = .default) throws(JOSEError) {
        let inner = try JWT.innerToken(ofNested: token, decryptor: decryptor, limits: limits)
        try self.init(verifying: inner, with: keySet, allowedAlgorithms: allowedAlgorithms, validator: validator, limits: limits)
    }

    /// The signed JWT inside a nested one: decrypts the outer JWE with `decryptor` and checks that
    /// its `cty` is `JWT` (RFC 7519 §5.2) and its content text. Nothing is verified yet: verify the
    /// result as any signed JWT (``init(verifying:with:allowedAlgorithms:validator:limits:)-(_,JOSEKey,_,_,_)``).
    ///
    /// - Throws: ``JOSEError`` `.malformed` when the token is not a compact JWE, its `cty` is not
    ///   `JWT` or its content is not text; `.tooLarge`; the decryptor's errors.
    public static func innerToken(ofNested token: String, decryptor: some JWTDecrypting,
                                  limits: JOSELimits = .default) throws(JOSEError) -> String {
        try limits.checkSize(token.utf8.count, of: "nested JWT")
        guard token.utf8.filter({ $0 == UInt8(ascii: ".") }).count == 4 else {
            throw JOSEError.malformed("the nested JWT", "is not a compact JWE (five segments)")
        }
        let (header, plaintext) = try decryptor.decrypt(compactJWE: token)
        guard let contentType = header.contentType, JWTValidator.mediaType(contentType) == "jwt" else {
            throw JOSEError.malformed("the nested JWT", "the JWE's \"cty\" is not \"JWT\" (RFC 7519 §5.2)")
        }
        guard let inner = String(validating: plaintext, as: UTF8.self) else {
            throw JOSEError.malformed("the nested JWT", "the decrypted content is not text")
        }
        return inner
    }
}
