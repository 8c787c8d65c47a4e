import CryptoOpenSSL

/// A public key of any algorithm Coffer handles.
public enum PublicKey: Sendable, Hashable {
    case rsa(RSAPublicKey)
    case ec(ECPublicKey)
    /// Ed25519, Ed448, X25519 or X448.
    case octet(OctetPublicKey)
    /// DSA, read only (``DSAPublicKey``).
    case dsa(DSAPublicKey)
    /// A FIDO/U2F security key as OpenSSH stores it (``SecurityKeyPublicKey``).
    case securityKey(SecurityKeyPublicKey)

    /// The algorithm.
    public var algorithm: KeyAlgorithmName {
        switch self {
        case .rsa: .rsa
        case .ec: .ec
        case .octet(let key): KeyAlgorithmName(key.algorithm)
        case .dsa: .dsa
        case .securityKey(let key): key.algorithmName
        }
    }

    /// The key size in bits, as `ssh-keygen -l` prints it (the modulus for RSA, the field for EC,
    /// 256 for Ed25519/X25519, 456 for Ed448, 448 for X448, p for DSA, 256 for security keys).
    public var bits: Int {
        switch self {
        case .rsa(let key): key.bits
        case .ec(let key): key.curve.bits
        case .octet(let key): key.algorithm.bits
        case .dsa(let key): key.bits
        case .securityKey(let key): key.innerKey.bits
        }
    }

    /// The algorithm for people, with the curve of an EC key: `RSA`, `EC (P-256)`, `Ed25519`
    /// (``KeyAlgorithmName/description(curve:)``).
    public var algorithmDescription: String {
        algorithm.description(curve: curve)
    }

    /// The curve of an EC key (P-256 for an ECDSA security key).
    public var curve: ECCurve? {
        if case .ec(let key) = self { return key.curve }
        if case .securityKey(let key) = self { return key.innerKey.curve }
        return nil
    }

    /// The raw public key: the uncompressed EC point, the 32/57/32/56 bytes of the octet keys, or
    /// for RSA the PKCS#1 `RSAPublicKey` DER, for DSA the DER `INTEGER y` (the SubjectPublicKeyInfo's
    /// BIT STRING, RFC 3279 §2.3.2), for a security key its authenticator's key.
    public var rawBytes: [UInt8] {
        switch self {
        case .rsa(let key): key.pkcs1DER
        case .ec(let key): key.point
        case .octet(let key): key.bytes
        case .dsa(let key): key.integerDER
        case .securityKey(let key): key.innerKey.rawBytes
        }
    }

    /// The RSA key, if this is one.
    public var rsa: RSAPublicKey? {
        if case .rsa(let key) = self { return key }
        return nil
    }

    /// The RSA key, or an error that names the algorithm this key has instead.
    ///
    /// - Parameter operation: What needs RSA (`RSA encryption`), for the message.
    /// - Throws: ``KeyError`` `.unsupportedAlgorithm`.
    public func requireRSA(for operation: String) throws -> RSAPublicKey {
        guard let rsa else { throw KeyError.notRSA(algorithmDescription, algorithm: algorithm, for: operation) }
        return rsa
    }
}

/// The key algorithms Coffer handles; the raw values are their stable lowercase names (`rsa`, `ec`,
/// `ed25519`, …), the same ``KeyError/algorithm`` uses.
public enum KeyAlgorithmName: String, Sendable, Hashable, CaseIterable {
    case rsa, ec, ed25519, ed448, x25519, x448
    /// DSA (read only).
    case dsa
    /// An Ed25519 FIDO security key (`sk-ssh-ed25519@openssh.com`).
    case skEd25519 = "sk-ed25519"
    /// An ECDSA P-256 FIDO security key (`sk-ecdsa-sha2-nistp256@openssh.com`).
    case skECDSA = "sk-ecdsa"

    init(_ algorithm: OctetKeyAlgorithm) {
        switch algorithm {
        case .ed25519: self = .ed25519
        case .ed448: self = .ed448
        case .x25519: self = .x25519
        case .x448: self = .x448
        }
    }

    /// The one description of a key's algorithm for people: the ``displayName``, and for EC the
    /// curve in parentheses (`EC (P-256)`).
    public func description(curve: ECCurve?) -> String {
        guard self == .ec || self == .skECDSA, let curve else { return displayName }
        return "\(displayName) (\(curve.rawValue))"
    }

    /// The name for people: `RSA`, `EC`, `Ed25519`, ….
    public var displayName: String {
        switch self {
        case .rsa: "RSA"
        case .ec: "EC"
        case .ed25519: "Ed25519"
        case .ed448: "Ed448"
        case .x25519: "X25519"
        case .x448: "X448"
        case .dsa: "DSA"
        case .skEd25519: "Ed25519-SK"
        case .skECDSA: "ECDSA-SK"
        }
    }
}
