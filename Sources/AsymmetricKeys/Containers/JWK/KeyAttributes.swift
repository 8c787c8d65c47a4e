/// What a container says about a key besides the key: a JWK's `kid`, `use`, `alg` and `key_ops`,
/// a PKCS#12 bag's friendly name and local key id, an OpenSSL `TRUSTED CERTIFICATE`'s trust
/// settings and alias (its alias is the friendly name, its key id the local key id, as in OpenSSL).
public struct KeyAttributes: Sendable, Hashable {
    /// JWK `kid`.
    public var keyID: String?
    /// JWK `use` (`sig`, `enc`).
    public var use: String?
    /// JWK `alg` (`RS256`, `ES384`, `EdDSA`, …).
    public var algorithm: String?
    /// JWK `key_ops`.
    public var keyOperations: [String]?
    /// PKCS#12 `friendlyName` (PKCS#9).
    public var friendlyName: String?
    /// PKCS#12 `localKeyId`, lowercase hex.
    public var localKeyID: String?
    /// The uses an OpenSSL `TRUSTED CERTIFICATE` trusts the certificate for (`serverAuth`, …, or
    /// dotted OIDs), as `openssl x509 -text` lists them under "Trusted Uses".
    public var trustedUses: [String]?
    /// The uses a `TRUSTED CERTIFICATE` rejects ("Rejected Uses").
    public var rejectedUses: [String]?
    /// The PKCS#12 bag the key came from (`pkcs8ShroudedKeyBag`, `keyBag`, `certBag`).
    public var bagType: String?

    public init(keyID: String? = nil, use: String? = nil, algorithm: String? = nil, keyOperations: [String]? = nil,
                friendlyName: String? = nil, localKeyID: String? = nil, bagType: String? = nil) {
        self.keyID = keyID
        self.use = use
        self.algorithm = algorithm
        self.keyOperations = keyOperations
        self.friendlyName = friendlyName
        self.localKeyID = localKeyID
        self.bagType = bagType
    }

    /// Whether no attribute is set.
    public var isEmpty: Bool { self == KeyAttributes() }
}
