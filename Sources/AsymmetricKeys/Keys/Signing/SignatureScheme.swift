import CryptoOpenSSL

/// How a message is signed: the one argument of ``PrivateKey/sign(_:scheme:)`` and
/// ``PublicKey/verify(_:for:scheme:)``, one case per algorithm family.
public enum SignatureScheme: Sendable, Hashable {
    /// RSASSA-PKCS1-v1_5 or RSASSA-PSS (RFC 8017 §8) over `digest`; PSS uses MGF1 with the same
    /// digest. SHA-256, SHA-384 and SHA-512 sign; older digests (SHA-1, SHA-224) verify only.
    case rsa(RSASignaturePadding, digest: DigestAlgorithm)
    /// ECDSA over `digest` (the curve's own when `nil`: SHA-256 for P-256, SHA-384 for P-384,
    /// SHA-512 for P-521), the signature in `format`.
    case ecdsa(digest: DigestAlgorithm?, format: ECDSASignatureFormat)
    /// Pure EdDSA (Ed25519, Ed448; RFC 8032): the message itself is signed, with no digest.
    case eddsa
    /// DSA (FIPS 186-4) over `digest`, the signature a DER `Dss-Sig-Value` (RFC 3279 §2.2.2):
    /// verification only (X.509 `dsa-with-SHA1`, `dsa-with-SHA224`, `dsa-with-SHA256`).
    case dsa(digest: DigestAlgorithm)

    /// The scheme's name for messages.
    var name: String {
        switch self {
        case .rsa(.pkcs1v15, let digest): "RSASSA-PKCS1-v1_5 with \(digest.shortName)"
        case .rsa(.pss, let digest): "RSASSA-PSS with \(digest.shortName)"
        case .ecdsa: "ECDSA"
        case .eddsa: "EdDSA"
        case .dsa(let digest): "DSA with \(digest.shortName)"
        }
    }

    /// The error for a scheme that does not fit the key: `.unsupportedAlgorithm` for a key that
    /// cannot sign at all (X25519, X448), `.invalidArgument` otherwise.
    func mismatch(_ algorithm: KeyAlgorithmName, description: String) -> KeyError {
        guard algorithm != .x25519 && algorithm != .x448 else {
            return KeyError.unsupported(algorithm, "signing (RSA, EC, Ed25519, Ed448)")
        }
        if algorithm == .dsa { return DSAPrivateKey.readOnly("sign") }
        if algorithm == .skEd25519 || algorithm == .skECDSA { return SecurityKeyPrivateKey.needsAuthenticator("sign or verify") }
        var error = KeyError(.invalidArgument, "\(name) does not apply to an \(description) key")
        error.algorithm = algorithm.rawValue
        return error
    }
}
