/// How an RSA encryption pads its block.
public enum RSAEncryptionPadding: Sendable, Hashable {
    /// RSAES-OAEP (RFC 8017 section 7.1) with `digest` for the label hash, `mgf1` for MGF1, and an
    /// optional label (`nil` and `[]` are the same: an empty label).
    case oaep(digest: DigestAlgorithm, mgf1: DigestAlgorithm, label: [UInt8]?)
    /// RSAES-PKCS1-v1_5 (RFC 8017 section 7.2). Decryption with it can be an oracle for
    /// Bleichenbacher's attack; OpenSSL 3.0 has no implicit rejection, so errors from
    /// ``OpenSSLRSAKey/decrypt(_:padding:)`` must not be shown to remote parties in detail.
    case pkcs1
    /// Raw RSA without padding: the block is the number itself. Insecure except as a building block.
    case unsafeNone

    /// OAEP with SHA-256 for both hashes and no label, the `keytool` default.
    public static let oaepSHA256 = RSAEncryptionPadding.oaep(digest: .sha256, mgf1: .sha256, label: nil)
    /// OAEP with SHA-1 for both hashes and no label, what `openssl pkeyutl -pkeyopt rsa_padding_mode:oaep` uses.
    public static let oaepSHA1 = RSAEncryptionPadding.oaep(digest: .sha1, mgf1: .sha1, label: nil)

    /// The padding overhead in bytes: 2·hLen + 2 for OAEP, 11 for PKCS#1 v1.5, 0 for none.
    public var overhead: Int {
        switch self {
        case .oaep(let digest, _, _): return 2 * digest.outputSize + 2
        case .pkcs1: return 11
        case .unsafeNone: return 0
        }
    }
}
