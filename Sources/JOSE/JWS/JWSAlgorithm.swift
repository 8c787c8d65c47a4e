import AsymmetricKeys
import CryptoOpenSSL

/// The JWS signature and MAC algorithms (RFC 7518 §3, RFC 8037 §3.1, RFC 8812 §3.2); the raw value
/// is the `alg` name.
///
/// `none` (RFC 7518 §3.6, the unsecured JWS) is deliberately not a case: ``init(name:)`` refuses it
/// with `.algorithmNotAllowed`, so no code path can sign or accept an unsecured token.
public enum JWSAlgorithm: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// HMAC with SHA-256.
    case hs256 = "HS256"
    /// HMAC with SHA-384.
    case hs384 = "HS384"
    /// HMAC with SHA-512.
    case hs512 = "HS512"
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = "RS256"
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    case rs384 = "RS384"
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    case rs512 = "RS512"
    /// RSASSA-PSS with SHA-256, MGF1 with SHA-256, a 32-byte salt.
    case ps256 = "PS256"
    /// RSASSA-PSS with SHA-384, MGF1 with SHA-384, a 48-byte salt.
    case ps384 = "PS384"
    /// RSASSA-PSS with SHA-512, MGF1 with SHA-512, a 64-byte salt.
    case ps512 = "PS512"
    /// ECDSA on P-256 with SHA-256.
    case es256 = "ES256"
    /// ECDSA on P-384 with SHA-384.
    case es384 = "ES384"
    /// ECDSA on P-521 with SHA-512.
    case es512 = "ES512"
    /// ECDSA on secp256k1 with SHA-256 (RFC 8812).
    case es256k = "ES256K"
    /// EdDSA (RFC 8037): Ed25519 or Ed448, as the key says.
    case eddsa = "EdDSA"

    /// The algorithm an `alg` value names.
    ///
    /// - Throws: ``JOSEError`` `.algorithmNotAllowed` for `none` (an unsecured JWS is never
    ///   accepted); `.unsupportedAlgorithm` for a name that is no JWS algorithm JOSE implements.
    public init(name: String) throws(JOSEError) {
        if let algorithm = JWSAlgorithm(rawValue: name) {
            self = algorithm
            return
        }
        if name == "none" {
            throw JOSEError(.algorithmNotAllowed, "alg \"none\" (an unsecured JWS, RFC 7518 §3.6) is never accepted")
        }
        let shown = name.count <= 32 ? name : String(name.prefix(32)) + "…"
        throw JOSEError(.unsupportedAlgorithm, "alg \"\(shown)\" is not a JWS algorithm JOSE implements (\(Self.allCases.map(\.rawValue).joined(separator: ", ")))")
    }

    /// The `alg` name.
    public var description: String { rawValue }

    /// The kinds of JWS algorithm.
    public enum Family: Sendable, Hashable {
        /// HMAC with a symmetric key (RFC 7518 §3.2).
        case hmac
        /// RSASSA-PKCS1-v1_5 (RFC 7518 §3.3).
        case rsaPKCS1
        /// RSASSA-PSS (RFC 7518 §3.5).
        case rsaPSS
        /// ECDSA on the curve (RFC 7518 §3.4, RFC 8812).
        case ecdsa(ECCurve)
        /// EdDSA (RFC 8037).
        case eddsa
    }

    /// The kind of algorithm, with the curve of an ECDSA one.
    public var family: Family {
        switch self {
        case .hs256, .hs384, .hs512: .hmac
        case .rs256, .rs384, .rs512: .rsaPKCS1
        case .ps256, .ps384, .ps512: .rsaPSS
        case .es256: .ecdsa(.p256)
        case .es384: .ecdsa(.p384)
        case .es512: .ecdsa(.p521)
        case .es256k: .ecdsa(.secp256k1)
        case .eddsa: .eddsa
        }
    }

    /// The digest the algorithm hashes with; `nil` for EdDSA, which signs the message itself.
    public var digest: DigestAlgorithm? {
        switch self {
        case .hs256, .rs256, .ps256, .es256, .es256k: .sha256
        case .hs384, .rs384, .ps384, .es384: .sha384
        case .hs512, .rs512, .ps512, .es512: .sha512
        case .eddsa: nil
        }
    }

    /// Whether this is an HMAC algorithm (a symmetric key).
    public var isHMAC: Bool { family == .hmac }

    /// The signature scheme of AsymmetricKeys that implements an asymmetric algorithm; `nil` for HMAC.
    ///
    /// PSS uses MGF1 with the same digest and a salt as long as the digest (RFC 7518 §3.5); ECDSA
    /// signatures are the fixed-width r ‖ s (RFC 7518 §3.4).
    public var signatureScheme: SignatureScheme? {
        switch (family, digest) {
        case (.rsaPKCS1, let digest?): .rsa(.pkcs1v15, digest: digest)
        case (.rsaPSS, let digest?): .rsa(.pss(saltLength: .digestLength, mgf1: digest), digest: digest)
        case (.ecdsa, let digest?): .ecdsa(digest: digest, format: .raw)
        case (.eddsa, _): .eddsa
        default: nil
        }
    }

    /// The smallest key for the algorithm, in bits: the digest's size for HMAC (RFC 7518 §3.2),
    /// 2048 for RSA (RFC 7518 §3.3, §3.5); `nil` where the curve fixes the size.
    public var minimumKeyBits: Int? {
        switch family {
        case .hmac: (digest?.outputSize ?? 0) * 8
        case .rsaPKCS1, .rsaPSS: 2048
        case .ecdsa, .eddsa: nil
        }
    }
}
