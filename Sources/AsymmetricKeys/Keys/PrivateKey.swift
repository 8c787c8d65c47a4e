import CryptoOpenSSL

/// A private key of any algorithm Coffer handles.
public enum PrivateKey: Sendable {
    case rsa(RSAPrivateKey)
    case ec(ECPrivateKey)
    /// Ed25519, Ed448, X25519 or X448.
    case octet(OctetPrivateKey)
    /// DSA, read only (``DSAPrivateKey``): no signing, no writing.
    case dsa(DSAPrivateKey)
    /// An OpenSSH security key file (``SecurityKeyPrivateKey``): the private key is in the
    /// authenticator, so it cannot sign here.
    case securityKey(SecurityKeyPrivateKey)

    /// The algorithm.
    public var algorithm: KeyAlgorithmName {
        switch self {
        case .rsa: .rsa
        case .ec: .ec
        case .octet(let key): KeyAlgorithmName(key.algorithm)
        case .dsa: .dsa
        case .securityKey(let key): key.publicKey.algorithmName
        }
    }

    /// The algorithm for people, with the curve of an EC key: `RSA`, `EC (P-256)`, `Ed25519`
    /// (``KeyAlgorithmName/description(curve:)``).
    public var algorithmDescription: String {
        if case .ec(let key) = self { return algorithm.description(curve: key.curve) }
        if case .securityKey(let key) = self { return algorithm.description(curve: key.publicKey.innerKey.curve) }
        return algorithm.description(curve: nil)
    }

    /// The public half. For Ed25519/Ed448/X25519/X448 keys read without their public key, it is
    /// derived with OpenSSL on first use.
    public func publicKey() throws -> PublicKey {
        switch self {
        case .rsa(let key): .rsa(key.publicKey)
        case .ec(let key): .ec(key.publicKey)
        case .octet(let key): .octet(try key.publicKey())
        case .dsa(let key): .dsa(key.publicKey)
        case .securityKey(let key): .securityKey(key.publicKey)
        }
    }

    /// The RSA key, if this is one.
    public var rsa: RSAPrivateKey? {
        if case .rsa(let key) = self { return key }
        return nil
    }

    /// The RSA key, or an error that names the algorithm this key has instead.
    ///
    /// - Parameter operation: What needs RSA (`RSA decryption`), for the message.
    /// - Throws: ``KeyError`` `.unsupportedAlgorithm`.
    public func requireRSA(for operation: String) throws -> RSAPrivateKey {
        guard let rsa else { throw KeyError.notRSA(algorithmDescription, algorithm: algorithm, for: operation) }
        return rsa
    }
}
