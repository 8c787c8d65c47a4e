import CryptoOpenSSL

/// A JWE content encryption algorithm (`enc`, RFC 7518 §5): AES-GCM or AES-CBC with HMAC-SHA-2.
/// The raw value is the registered name.
public enum ContentEncryptionAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// AES-128-CBC with HMAC-SHA-256 (RFC 7518 §5.2.3); a 32-byte CEK.
    case a128CBCHS256 = "A128CBC-HS256"
    /// AES-192-CBC with HMAC-SHA-384 (RFC 7518 §5.2.4); a 48-byte CEK.
    case a192CBCHS384 = "A192CBC-HS384"
    /// AES-256-CBC with HMAC-SHA-512 (RFC 7518 §5.2.5); a 64-byte CEK.
    case a256CBCHS512 = "A256CBC-HS512"
    /// AES-128-GCM (RFC 7518 §5.3); a 16-byte CEK.
    case a128GCM = "A128GCM"
    /// AES-192-GCM; a 24-byte CEK.
    case a192GCM = "A192GCM"
    /// AES-256-GCM; a 32-byte CEK.
    case a256GCM = "A256GCM"

    /// The algorithm named `name`, or `nil` for a name JOSE does not implement.
    public init?(name: String) { self.init(rawValue: name) }

    /// The content encryption key length in bytes.
    public var keySize: Int { cbc?.keySize ?? gcm.keySize }

    /// The IV length in bytes: 16 for CBC, 12 for GCM.
    public var ivSize: Int { cbc == nil ? 12 : AESCBCHMACSHA2.ivSize }

    /// The authentication tag length in bytes: 16 for GCM, half the HMAC for CBC-HMAC.
    public var tagLength: Int { cbc?.tagLength ?? 16 }

    /// The CBC-HMAC construction, for the CBC cases.
    private var cbc: AESCBCHMACSHA2? { AESCBCHMACSHA2(rawValue: rawValue) }

    /// The GCM cipher, for the GCM cases (AES-128-GCM otherwise, never used).
    private var gcm: SymmetricCipher {
        switch self {
        case .a192GCM: .aes192GCM
        case .a256GCM: .aes256GCM
        default: .aes128GCM
        }
    }

    /// Encrypts `plaintext` under `cek` with `iv`, authenticating `aad`.
    func seal(_ plaintext: [UInt8], cek: SecureBytes, iv: [UInt8], aad: [UInt8]) throws(JOSEError) -> (ciphertext: [UInt8], tag: [UInt8]) {
        try JOSEError.wrapping(.invalidKey, "\(rawValue) encryption") {
            if let cbc { return try cbc.seal(plaintext, key: cek, iv: iv, aad: aad) }
            return try Cipher.sealGCM(gcm, key: cek, iv: iv, plaintext, aad: aad, tagLength: 16)
        }
    }

    /// Checks the tag and decrypts. The IV and tag lengths are checked first: a GCM tag of
    /// another length than 16 bytes is refused rather than checked truncated.
    ///
    /// - Throws: ``JOSEError`` `.decryptionFailed` for a wrong key or altered data (the
    ///   `CryptoError` as the cause); `.malformed` for an IV or tag of the wrong length.
    func open(_ ciphertext: [UInt8], tag: [UInt8], cek: SecureBytes, iv: [UInt8], aad: [UInt8]) throws(JOSEError) -> [UInt8] {
        guard iv.count == ivSize else {
            throw JOSEError.malformed("the JWE initialization vector", "\(rawValue) needs a \(ivSize)-byte IV; this one has \(iv.count) bytes")
        }
        guard tag.count == tagLength else {
            throw JOSEError(.decryptionFailed, "the JWE authentication tag has \(tag.count) bytes; \(rawValue) has \(tagLength)-byte tags")
        }
        guard cek.count == keySize else {
            throw JOSEError(.decryptionFailed, "the content encryption key has \(cek.count) bytes; \(rawValue) needs \(keySize)")
        }
        return try JOSEError.wrapping(.decryptionFailed, "\(rawValue) decryption (wrong key, or altered data)") {
            if let cbc { return try cbc.open(ciphertext, tag: tag, key: cek, iv: iv, aad: aad) }
            return try Cipher.openGCM(gcm, key: cek, iv: iv, ciphertext, tag: tag, aad: aad)
        }
    }
}
