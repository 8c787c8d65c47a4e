import AsymmetricKeys
import CryptoOpenSSL

/// Where encryption gets its randomness: the CEK, the IVs, the PBES2 salts and the ECDH-ES
/// ephemeral keys. ``SystemJWERandomSource`` (OpenSSL's DRBG) is the only one the public API
/// uses; tests inside the package give their own to reproduce published examples byte for byte.
package protocol JWERandomSource: Sendable {
    /// A fresh content encryption key of `count` bytes.
    func contentEncryptionKey(count: Int) throws -> SecureBytes
    /// The content encryption's IV of `count` bytes.
    func initializationVector(count: Int) throws -> [UInt8]
    /// The AES-GCM key wrap IV of recipient `recipient` (0-based).
    func keyWrapInitializationVector(count: Int, recipient: Int) throws -> [UInt8]
    /// The PBES2 salt input (`p2s`) of recipient `recipient`.
    func pbes2Salt(count: Int, recipient: Int) throws -> [UInt8]
    /// An ECDH-ES ephemeral private key on the curve of `recipientKey`, for recipient `recipient`.
    func ephemeralKey(for recipientKey: PublicKey, recipient: Int) throws -> PrivateKey
}

/// Randomness from OpenSSL's DRBG (`RAND_bytes`) and fresh keys from OpenSSL's key generation.
package struct SystemJWERandomSource: JWERandomSource {
    package init() {}

    package func contentEncryptionKey(count: Int) throws -> SecureBytes { try SecureBytes(randomCount: count) }

    package func initializationVector(count: Int) throws -> [UInt8] { try SecureRandom.bytes(count) }

    package func keyWrapInitializationVector(count: Int, recipient: Int) throws -> [UInt8] { try SecureRandom.bytes(count) }

    package func pbes2Salt(count: Int, recipient: Int) throws -> [UInt8] { try SecureRandom.bytes(count) }

    package func ephemeralKey(for recipientKey: PublicKey, recipient: Int) throws -> PrivateKey {
        switch recipientKey {
        case .ec(let key): try PrivateKey.generate(.ec, curve: key.curve)
        default: try PrivateKey.generate(recipientKey.algorithm)
        }
    }
}
