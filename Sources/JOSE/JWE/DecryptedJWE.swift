/// A decrypted JWE: the plaintext and everything its headers said.
public struct DecryptedJWE: Sendable {
    /// The plaintext (decompressed when the JWE had `zip`).
    public var plaintext: [UInt8]
    /// The JOSE Header the recipient was decrypted under: the union of the protected header, the
    /// shared unprotected header and the recipient's header (RFC 7516 §5.2 step 4).
    public var header: JOSEHeader
    /// The protected header, if any; only its members were integrity protected.
    public var protectedHeader: ProtectedHeader?
    /// The key management algorithm of the recipient that was decrypted.
    public var keyManagementAlgorithm: KeyManagementAlgorithm
    /// The content encryption algorithm.
    public var contentEncryptionAlgorithm: ContentEncryptionAlgorithm
    /// Which recipient was decrypted (0-based, in the JWE's order).
    public var recipientIndex: Int
    /// The key that decrypted it (`nil` for a passphrase).
    public var key: JOSEKey?
    /// The JWE AAD, if the JWE had one (authenticated, not encrypted).
    public var additionalAuthenticatedData: [UInt8]?
}
