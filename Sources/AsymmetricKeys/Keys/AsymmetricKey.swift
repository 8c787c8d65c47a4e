import CofferErrors

/// A public or a private key of any algorithm: what KeyCodec's `KeyDecoder` returns.
public enum AsymmetricKey: Sendable {
    case publicKey(PublicKey)
    case privateKey(PrivateKey)

    /// The public half (derived for octet keys read without one; see ``PrivateKey/publicKey()``).
    public func publicKey() throws -> PublicKey {
        switch self {
        case .publicKey(let key): key
        case .privateKey(let key): try key.publicKey()
        }
    }

    /// The private key, if this is one.
    public var privateKey: PrivateKey? {
        if case .privateKey(let key) = self { return key }
        return nil
    }

    /// Whether this is a private key.
    public var isPrivate: Bool { privateKey != nil }

    /// The algorithm.
    public var algorithm: KeyAlgorithmName {
        switch self {
        case .publicKey(let key): key.algorithm
        case .privateKey(let key): key.algorithm
        }
    }

    /// The algorithm for people, with the curve of an EC key.
    public var algorithmDescription: String {
        switch self {
        case .publicKey(let key): key.algorithmDescription
        case .privateKey(let key): key.algorithmDescription
        }
    }
}
