/// The authenticated encryption of RFC 7518 §5.2: AES in CBC mode with PKCS#7 padding, then an
/// HMAC-SHA-2 over the additional data, the IV, the ciphertext and the additional data's length,
/// truncated to half the digest. JWE's `A128CBC-HS256`, `A192CBC-HS384` and `A256CBC-HS512`
/// content encryption; the raw value is that name.
///
/// ```
/// K = MAC_KEY || ENC_KEY                (each half of the key)
/// E = AES-CBC(ENC_KEY, IV, PKCS#7(P))
/// AL = bit length of A, as a 64-bit big-endian integer
/// T = first T_LEN bytes of HMAC-SHA-2(MAC_KEY, A || IV || E || AL)
/// ```
///
/// ``open(_:tag:key:iv:aad:)`` compares the tag in constant time and decrypts only after it
/// matches, so a padding error is never an oracle.
public enum AESCBCHMACSHA2: String, Sendable, Hashable, CaseIterable {
    /// AES-128-CBC with HMAC-SHA-256 truncated to 16 bytes; a 32-byte key.
    case aes128CBCHMACSHA256 = "A128CBC-HS256"
    /// AES-192-CBC with HMAC-SHA-384 truncated to 24 bytes; a 48-byte key.
    case aes192CBCHMACSHA384 = "A192CBC-HS384"
    /// AES-256-CBC with HMAC-SHA-512 truncated to 32 bytes; a 64-byte key.
    case aes256CBCHMACSHA512 = "A256CBC-HS512"

    /// The IV length in bytes: one AES block.
    public static let ivSize = 16

    /// The whole key length in bytes: the MAC key followed by the AES key, each half of it.
    public var keySize: Int { 2 * cipher.keySize }

    /// The tag length in bytes (T_LEN): half the digest, as long as the AES key.
    public var tagLength: Int { cipher.keySize }

    /// The AES-CBC cipher of the second half of the key.
    var cipher: SymmetricCipher {
        switch self {
        case .aes128CBCHMACSHA256: .aes128CBC
        case .aes192CBCHMACSHA384: .aes192CBC
        case .aes256CBCHMACSHA512: .aes256CBC
        }
    }

    /// The HMAC digest of the first half of the key.
    var digest: DigestAlgorithm {
        switch self {
        case .aes128CBCHMACSHA256: .sha256
        case .aes192CBCHMACSHA384: .sha384
        case .aes256CBCHMACSHA512: .sha512
        }
    }

    /// Encrypts and authenticates `plaintext` (RFC 7518 §5.2.2.1).
    ///
    /// - Parameters:
    ///   - key: ``keySize`` bytes: the MAC key, then the AES key.
    ///   - iv: 16 bytes, unpredictable; never reuse one with the same key.
    ///   - aad: Additional data, authenticated but not encrypted.
    /// - Returns: The ciphertext (the plaintext padded to whole blocks, encrypted) and the
    ///   ``tagLength``-byte tag.
    /// - Throws: ``CryptoError`` `.invalidArgument` for a wrong key or IV length; `.openSSL`.
    public func seal(_ plaintext: [UInt8], key: some ByteSource, iv: [UInt8], aad: [UInt8] = []) throws -> (ciphertext: [UInt8], tag: [UInt8]) {
        try checkLengths(key: key, iv: iv, "seal")
        let ciphertext = try withEncryptionKey(key) { try Cipher.encrypt(cipher, key: $0, iv: iv, plaintext) }
        return (ciphertext, try tag(key: key, aad: aad, iv: iv, ciphertext: ciphertext))
    }

    /// Checks the tag and decrypts (RFC 7518 §5.2.2.2). No plaintext is returned unless the tag
    /// matches; the tag is compared in constant time before anything is decrypted.
    ///
    /// - Parameters:
    ///   - ciphertext: The ciphertext, a whole number of AES blocks.
    ///   - tag: The ``tagLength``-byte tag.
    ///   - key: ``keySize`` bytes: the MAC key, then the AES key.
    ///   - iv: The 16-byte IV.
    ///   - aad: The additional data the tag covers.
    /// - Throws: ``CryptoError`` `.authenticationFailed` when the tag does not match (a wrong key,
    ///   or an altered IV, AAD, ciphertext or tag) or the authenticated ciphertext does not decrypt
    ///   to well-padded data; `.invalidArgument` for a wrong key or IV length.
    public func open(_ ciphertext: [UInt8], tag: [UInt8], key: some ByteSource, iv: [UInt8], aad: [UInt8] = []) throws -> [UInt8] {
        try checkLengths(key: key, iv: iv, "open")
        let expected = try self.tag(key: key, aad: aad, iv: iv, ciphertext: ciphertext)
        // The lengths are public; the contents are compared in constant time (CRYPTO_memcmp).
        guard tag.count == tagLength, constantTimeEquals(expected, tag) else {
            throw CryptoError(.authenticationFailed, "\(rawValue) authentication failed: wrong key, IV, tag or AAD, or tampered data", operation: "open")
        }
        do {
            return try withEncryptionKey(key) { try Cipher.decrypt(cipher, key: $0, iv: iv, ciphertext) }
        } catch let error as CryptoError {
            // Only the holder of the MAC key can produce an authentic ciphertext that does not
            // decrypt: report it as a failed authentication, with the cipher's error as the cause.
            throw CryptoError(.authenticationFailed, "\(rawValue): the authenticated ciphertext does not decrypt", operation: "open", cause: error)
        }
    }

    /// HMAC(MAC_KEY, A || IV || E || AL), truncated to ``tagLength``.
    private func tag(key: some ByteSource, aad: [UInt8], iv: [UInt8], ciphertext: [UInt8]) throws -> [UInt8] {
        var input: [UInt8] = []
        input.reserveCapacity(aad.count + iv.count + ciphertext.count + 8)
        input += aad
        input += iv
        input += ciphertext
        let bits = UInt64(aad.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            input.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
        let half = cipher.keySize
        let mac = try key.withUnsafeBytes { keyBytes in
            try input.withUnsafeBytes { data in
                try HMAC.authenticationCode(digest, key: UnsafeRawBufferPointer(rebasing: keyBytes[0..<half]), data: data)
            }
        }
        return Array(mac[0..<tagLength])
    }

    /// Calls `body` with the AES key (the second half of `key`), copied into wiped storage.
    private func withEncryptionKey<Result>(_ key: some ByteSource, _ body: (SecureBytes) throws -> Result) rethrows -> Result {
        let half = cipher.keySize
        let encryptionKey = key.withUnsafeBytes { SecureBytes(copying: UnsafeRawBufferPointer(rebasing: $0[half...])) }
        return try body(encryptionKey)
    }

    private func checkLengths(key: some ByteSource, iv: [UInt8], _ operation: String) throws {
        guard key.count == keySize else {
            throw CryptoError.invalidArgument(operation, "\(rawValue) needs a \(keySize)-byte key, got \(key.count) bytes")
        }
        guard iv.count == Self.ivSize else {
            throw CryptoError.invalidArgument(operation, "\(rawValue) needs a \(Self.ivSize)-byte IV, got \(iv.count) bytes")
        }
    }
}
