import CryptoOpenSSL

/// A JWE key management algorithm (`alg`, RFC 7518 §4): how the content encryption key (CEK)
/// reaches each recipient. The raw value is the registered name.
///
/// `RSA1_5` is here so that old tokens can be read: JOSE decrypts with it only when
/// ``JWEDecryptionOptions/allowRSA1_5`` says so, and never encrypts with it.
public enum KeyManagementAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// RSAES-PKCS1-v1_5 (RFC 7518 §4.2). Decryption only, and only when allowed explicitly.
    case rsa1_5 = "RSA1_5"
    /// RSAES-OAEP with SHA-1 and MGF1-SHA-1 (RFC 7518 §4.3).
    case rsaOAEP = "RSA-OAEP"
    /// RSAES-OAEP with SHA-256 and MGF1-SHA-256.
    case rsaOAEP256 = "RSA-OAEP-256"
    /// AES Key Wrap with a 128-bit key (RFC 7518 §4.4).
    case a128KW = "A128KW"
    /// AES Key Wrap with a 192-bit key.
    case a192KW = "A192KW"
    /// AES Key Wrap with a 256-bit key.
    case a256KW = "A256KW"
    /// The shared symmetric key is the CEK (RFC 7518 §4.5).
    case direct = "dir"
    /// ECDH-ES, the agreed key is the CEK (RFC 7518 §4.6).
    case ecdhES = "ECDH-ES"
    /// ECDH-ES, the agreed key wraps the CEK with A128KW.
    case ecdhESA128KW = "ECDH-ES+A128KW"
    /// ECDH-ES, the agreed key wraps the CEK with A192KW.
    case ecdhESA192KW = "ECDH-ES+A192KW"
    /// ECDH-ES, the agreed key wraps the CEK with A256KW.
    case ecdhESA256KW = "ECDH-ES+A256KW"
    /// AES-GCM key wrap with a 128-bit key, the IV and tag in the `iv` and `tag` headers (RFC 7518 §4.7).
    case a128GCMKW = "A128GCMKW"
    /// AES-GCM key wrap with a 192-bit key.
    case a192GCMKW = "A192GCMKW"
    /// AES-GCM key wrap with a 256-bit key.
    case a256GCMKW = "A256GCMKW"
    /// PBES2 with HMAC-SHA-256 and A128KW: a passphrase, a salt (`p2s`) and a count (`p2c`) (RFC 7518 §4.8).
    case pbes2HS256A128KW = "PBES2-HS256+A128KW"
    /// PBES2 with HMAC-SHA-384 and A192KW.
    case pbes2HS384A192KW = "PBES2-HS384+A192KW"
    /// PBES2 with HMAC-SHA-512 and A256KW.
    case pbes2HS512A256KW = "PBES2-HS512+A256KW"

    /// The algorithm named `name`, or `nil` for a name JOSE does not implement.
    public init?(name: String) { self.init(rawValue: name) }

    /// What kind of key the algorithm takes, and how.
    enum Family: Sendable, Hashable {
        case rsa(RSAEncryptionPadding)
        case aesKeyWrap
        case direct
        case ecdh(wrapped: Bool)
        case aesGCMKeyWrap
        case pbes2(DigestAlgorithm)
    }

    var family: Family {
        switch self {
        case .rsa1_5: .rsa(.pkcs1)
        case .rsaOAEP: .rsa(.oaepSHA1)
        case .rsaOAEP256: .rsa(.oaepSHA256)
        case .a128KW, .a192KW, .a256KW: .aesKeyWrap
        case .direct: .direct
        case .ecdhES: .ecdh(wrapped: false)
        case .ecdhESA128KW, .ecdhESA192KW, .ecdhESA256KW: .ecdh(wrapped: true)
        case .a128GCMKW, .a192GCMKW, .a256GCMKW: .aesGCMKeyWrap
        case .pbes2HS256A128KW: .pbes2(.sha256)
        case .pbes2HS384A192KW: .pbes2(.sha384)
        case .pbes2HS512A256KW: .pbes2(.sha512)
        }
    }

    /// The key encryption key length in bytes for the AES-wrapping algorithms (AES KW, AES-GCM
    /// KW, the `+A…KW` steps); `nil` for the others.
    public var keyEncryptionKeySize: Int? {
        switch self {
        case .a128KW, .a128GCMKW, .ecdhESA128KW, .pbes2HS256A128KW: 16
        case .a192KW, .a192GCMKW, .ecdhESA192KW, .pbes2HS384A192KW: 24
        case .a256KW, .a256GCMKW, .ecdhESA256KW, .pbes2HS512A256KW: 32
        case .rsa1_5, .rsaOAEP, .rsaOAEP256, .direct, .ecdhES: nil
        }
    }

    /// Whether the JWE Encrypted Key is empty (`dir`, `ECDH-ES`): the CEK is the key, or is agreed.
    public var hasEmptyEncryptedKey: Bool { self == .direct || self == .ecdhES }

    /// The default PBES2 iteration count used to encrypt: the OWASP 2023 figures for PBKDF2
    /// (600,000 with HMAC-SHA-256, 210,000 with SHA-384 and SHA-512); `nil` for the other families.
    ///
    /// Readers with a lower cap (jwcrypto's default is 16,384) need a lower count:
    /// ``JWERecipient/init(passphrase:algorithm:iterations:header:)``.
    public var defaultPBES2Iterations: Int? {
        switch self {
        case .pbes2HS256A128KW: 600_000
        case .pbes2HS384A192KW, .pbes2HS512A256KW: 210_000
        default: nil
        }
    }

    /// The key_ops (RFC 7517 §4.3) that allow this algorithm when encrypting and decrypting.
    var keyOperations: (encrypting: Set<String>, decrypting: Set<String>) {
        switch family {
        case .direct: (["encrypt"], ["decrypt"])
        case .ecdh: (["deriveKey", "deriveBits"], ["deriveKey", "deriveBits"])
        default: (["wrapKey", "encrypt"], ["unwrapKey", "decrypt"])
        }
    }
}
