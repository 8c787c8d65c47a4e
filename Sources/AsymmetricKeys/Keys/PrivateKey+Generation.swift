import CryptoOpenSSL

extension PrivateKey {
    /// Generates a new key with OpenSSL.
    ///
    /// - Parameters:
    ///   - algorithm: The key's algorithm.
    ///   - curve: For EC keys (P-256 when `nil`).
    ///   - bits: For RSA keys (2048 when `nil`).
    public static func generate(_ algorithm: KeyAlgorithmName, curve: ECCurve? = nil, bits: Int? = nil, publicExponent: UInt64 = 65537) throws -> PrivateKey {
        switch algorithm {
        case .rsa: return .rsa(try RSAPrivateKey.generate(bits: bits ?? 2048, publicExponent: publicExponent))
        case .ec: return .ec(try ECPrivateKey.generate(curve: curve ?? .p256))
        case .ed25519: return .octet(try OctetPrivateKey.generate(.ed25519))
        case .ed448: return .octet(try OctetPrivateKey.generate(.ed448))
        case .x25519: return .octet(try OctetPrivateKey.generate(.x25519))
        case .x448: return .octet(try OctetPrivateKey.generate(.x448))
        case .dsa:
            throw DSAPrivateKey.readOnly("generate")
        case .skEd25519, .skECDSA:
            throw SecurityKeyPrivateKey.needsAuthenticator("generate keys")
        }
    }
}
