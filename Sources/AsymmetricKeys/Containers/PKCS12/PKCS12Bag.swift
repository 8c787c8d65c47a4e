/// One SafeBag of a PKCS#12 file (RFC 7292 §4.2), decrypted.
public struct PKCS12Bag: Sendable {
    /// What the bag holds.
    public enum Content: Sendable {
        /// A `keyBag` or `pkcs8ShroudedKeyBag`.
        case privateKey(PrivateKey)
        /// A `certBag` holding an X.509 certificate (its DER).
        case certificate([UInt8])
        /// A bag Coffer lists but does not read (`crlBag`, `secretBag`, an SDSI certificate…),
        /// named by its type.
        case other(String)
    }

    /// The content.
    public var content: Content
    /// The bag's 1-based number in file order (nested SafeContents flattened in place), counting
    /// bags that could not be read.
    public var index = 0
    /// The bag type as RFC 7292 names it: `keyBag`, `pkcs8ShroudedKeyBag`, `certBag`, `crlBag`, `secretBag`.
    public var type: String
    /// The `friendlyName` and `localKeyId` attributes.
    public var attributes: KeyAttributes
    /// How the bag was protected: a shrouded key's own encryption, or the encryption of the
    /// SafeContents holding it; `nil` for a bag stored in plain.
    public var encryption: KeyEncryptionInfo?

    public init(content: Content, type: String, attributes: KeyAttributes = KeyAttributes(), encryption: KeyEncryptionInfo? = nil) {
        self.content = content
        self.type = type
        self.attributes = attributes
        self.encryption = encryption
    }
}
