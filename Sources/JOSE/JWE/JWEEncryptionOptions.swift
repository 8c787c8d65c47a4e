/// What else goes into a JWE being made, besides the plaintext and the recipients.
public struct JWEEncryptionOptions: Sendable {
    /// Members of the protected header (`typ`, `cty`, `kid`, extensions with `crit`, …). JOSE sets
    /// `enc`, `zip` and, with one recipient, `alg` and the key management members in it, in place
    /// when the header already names them (their values must then agree), else appended.
    public var protectedHeader: JOSEHeader
    /// The JWE Shared Unprotected Header (JSON serializations only). When it names `enc` or
    /// `alg`, JOSE leaves them there.
    public var sharedUnprotectedHeader: JOSEHeader?
    /// The JWE AAD: extra data the tag covers, carried in the clear (JSON serializations only).
    public var additionalAuthenticatedData: [UInt8]?
    /// Compress the plaintext before encrypting (`zip`). Compressing secrets next to
    /// attacker-chosen data leaks through the length; leave it off unless the plaintext is yours.
    public var compression: JWECompression?

    /// Options; every field defaults to nothing extra.
    public init(protectedHeader: JOSEHeader = JOSEHeader(), sharedUnprotectedHeader: JOSEHeader? = nil,
                additionalAuthenticatedData: [UInt8]? = nil, compression: JWECompression? = nil) {
        self.protectedHeader = protectedHeader
        self.sharedUnprotectedHeader = sharedUnprotectedHeader
        self.additionalAuthenticatedData = additionalAuthenticatedData
        self.compression = compression
    }
}
