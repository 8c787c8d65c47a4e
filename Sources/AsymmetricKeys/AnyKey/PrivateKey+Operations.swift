import CofferErrors
import CryptoOpenSSL

extension PrivateKey {
    /// Signs a message with an EC, Ed25519 or Ed448 key: ECDSA over the `digest` of the message
    /// (the curve's own digest when `nil`), the signature in `format`; Ed25519 and Ed448 pure, as
    /// `openssl pkeyutl -sign -rawin` (no digest, `format` ignored). RSA keys sign through
    /// ``RSAPrivateKey``'s own API, which takes a padding.
    ///
    /// - Throws: ``KeyError`` `.unsupportedAlgorithm` for RSA, X25519 and X448 keys,
    ///   `.invalidArgument` for a digest given to EdDSA, `.operationFailed` when OpenSSL fails.
    public func sign(_ message: [UInt8], digest: DigestAlgorithm? = nil, format: ECDSASignatureFormat = .der) throws -> [UInt8] {
        switch self {
        case .ec(let key):
            let digest = digest ?? key.curve.digest
            let der = try KeyError.fromOpenSSL("ECDSA signing") { try key.openSSLKey().sign(message: message, digest: digest) }
            return format == .der ? der : try ECDSASignatureFormat.raw(fromDER: der, curve: key.curve)
        case .octet(let key) where key.algorithm.isSignature:
            if let digest {
                throw KeyError(.invalidArgument, "\(key.algorithm.displayName) signs the message itself; a \(digest.rawValue) digest does not apply")
            }
            return try KeyError.fromOpenSSL("\(key.algorithm.displayName) signing") { try key.openSSLKey().sign(message: message, digest: nil) }
        default:
            throw Self.unsupported(algorithm, "signing with this call (EC, Ed25519, Ed448)")
        }
    }

    /// The shared secret with `peer` (ECDH on P-256/384/521, X25519, X448), as
    /// `openssl pkeyutl -derive` computes it.
    ///
    /// - Throws: ``KeyError`` `.unsupportedAlgorithm` for RSA, Ed25519 and Ed448 keys,
    ///   `.invalidArgument` for a peer of another algorithm or curve.
    public func deriveSharedSecret(with peer: PublicKey) throws -> SecureBytes {
        let ours: OpenSSLCurveKey
        let theirs: OpenSSLCurveKey
        switch (self, peer) {
        case (.ec(let key), .ec(let other)) where key.curve == other.curve:
            (ours, theirs) = (try key.openSSLKey(), try other.openSSLKey())
        case (.octet(let key), .octet(let other)) where !key.algorithm.isSignature && key.algorithm == other.algorithm:
            (ours, theirs) = (try key.openSSLKey(), try other.openSSLKey())
        default:
            if case .octet(let key) = self, key.algorithm.isSignature { throw Self.unsupported(algorithm, "key agreement (EC, X25519, X448)") }
            if case .rsa = self { throw Self.unsupported(algorithm, "key agreement (EC, X25519, X448)") }
            throw KeyError(.invalidArgument, "the peer key is \(peer.algorithm.displayName)\(peer.curve.map { " \($0.rawValue)" } ?? ""); it must be the same algorithm and curve as the private key")
        }
        return try KeyError.fromOpenSSL("deriving the shared secret") { try ours.derive(peer: theirs) }
    }

    static func unsupported(_ algorithm: KeyAlgorithmName, _ what: String) -> KeyError {
        var error = KeyError(.unsupportedAlgorithm, "\(what) does not take an \(algorithm.displayName) key")
        error.algorithm = algorithm.rawValue
        return error
    }

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
        }
    }
}

extension PublicKey {
    /// Verifies an ECDSA (signature in `format`, digest defaulting to the curve's), Ed25519 or
    /// Ed448 signature over a message.
    ///
    /// - Returns: `true` when it verifies, `false` for any wrong signature or message.
    /// - Throws: ``KeyError`` `.unsupportedAlgorithm` for RSA, X25519 and X448 keys,
    ///   `.malformed` for a raw signature of the wrong length.
    public func verify(_ signature: [UInt8], for message: [UInt8], digest: DigestAlgorithm? = nil, format: ECDSASignatureFormat = .der) throws -> Bool {
        switch self {
        case .ec(let key):
            let der = format == .der ? signature : try ECDSASignatureFormat.der(fromRaw: signature, curve: key.curve)
            let digest = digest ?? key.curve.digest
            return try KeyError.fromOpenSSL("ECDSA verification") { try key.openSSLKey().verify(signature: der, message: message, digest: digest) }
        case .octet(let key) where key.algorithm.isSignature:
            if let digest {
                throw KeyError(.invalidArgument, "\(key.algorithm.displayName) signs the message itself; a \(digest.rawValue) digest does not apply")
            }
            return try KeyError.fromOpenSSL("\(key.algorithm.displayName) verification") { try key.openSSLKey().verify(signature: signature, message: message, digest: nil) }
        default:
            throw PrivateKey.unsupported(algorithm, "verifying with this call (EC, Ed25519, Ed448)")
        }
    }
}
