/// One-shot symmetric encryption and decryption over ``CipherStream``.
public enum Cipher {
    /// Encrypts `data` with a non-authenticated cipher.
    ///
    /// - Parameters:
    ///   - padding: PKCS#7 padding for the block modes; without it `data` must be a whole number of
    ///     blocks. Stream modes (CTR, CFB) ignore it.
    /// - Throws: ``CryptoError`` `.invalidArgument` for wrong key/IV lengths, unpadded partial
    ///   blocks or a GCM cipher (use ``sealGCM(_:key:iv:_:aad:tagLength:)``); `.unsupported`,
    ///   `.openSSL` from OpenSSL.
    public static func encrypt(_ cipher: SymmetricCipher, key: some ByteSource, iv: [UInt8], _ data: some ByteSource, padding: Bool = true) throws -> [UInt8] {
        try run(cipher, key: key, iv: iv, data, padding: padding, decrypting: false)
    }

    /// Decrypts `data` with a non-authenticated cipher.
    ///
    /// - Throws: ``CryptoError`` `.badDecrypt` when the padding is wrong — almost always a wrong key
    ///   or passphrase; the other codes as ``encrypt(_:key:iv:_:padding:)``.
    public static func decrypt(_ cipher: SymmetricCipher, key: some ByteSource, iv: [UInt8], _ data: some ByteSource, padding: Bool = true) throws -> [UInt8] {
        try run(cipher, key: key, iv: iv, data, padding: padding, decrypting: true)
    }

    /// Encrypts and authenticates with AES-GCM.
    ///
    /// - Parameters:
    ///   - iv: The nonce; 12 bytes is the standard length. Never reuse one with the same key.
    ///   - aad: Additional data that is authenticated but not encrypted.
    ///   - tagLength: 4 to 16 bytes.
    /// - Returns: The ciphertext (as long as the plaintext) and the tag.
    /// - Throws: ``CryptoError`` `.invalidArgument` for a non-GCM cipher or bad lengths.
    public static func sealGCM(
        _ cipher: SymmetricCipher, key: some ByteSource, iv: [UInt8], _ plaintext: [UInt8], aad: [UInt8] = [], tagLength: Int = 16
    ) throws -> (ciphertext: [UInt8], tag: [UInt8]) {
        try requireGCM(cipher, "sealGCM")
        guard (4...16).contains(tagLength) else {
            throw CryptoError.invalidArgument("sealGCM", "a GCM tag has 4 to 16 bytes, got \(tagLength)")
        }
        let stream = try CipherStream(cipher: cipher, key: key, iv: iv, decrypting: false)
        try stream.setAAD(aad)
        var ciphertext = try stream.update(plaintext)
        ciphertext += try stream.finish()
        return (ciphertext, try stream.tag(length: tagLength))
    }

    /// Checks the tag and decrypts AES-GCM. No plaintext is returned unless the tag matches.
    ///
    /// - Throws: ``CryptoError`` `.authenticationFailed` when the key, IV, AAD, tag or ciphertext is
    ///   wrong; `.invalidArgument` for a non-GCM cipher or bad lengths.
    public static func openGCM(
        _ cipher: SymmetricCipher, key: some ByteSource, iv: [UInt8], _ ciphertext: [UInt8], tag: [UInt8], aad: [UInt8] = []
    ) throws -> [UInt8] {
        try requireGCM(cipher, "openGCM")
        let stream = try CipherStream(cipher: cipher, key: key, iv: iv, decrypting: true)
        try stream.setAAD(aad)
        try stream.setExpectedTag(tag)
        var plaintext = try stream.update(ciphertext)
        plaintext += try stream.finish()
        return plaintext
    }

    private static func requireGCM(_ cipher: SymmetricCipher, _ operation: String) throws {
        guard cipher.isAuthenticated else {
            throw CryptoError.invalidArgument(operation, "\(cipher.rawValue) is not an authenticated cipher; use encrypt/decrypt")
        }
    }

    private static func run(
        _ cipher: SymmetricCipher, key: some ByteSource, iv: [UInt8], _ data: some ByteSource, padding: Bool, decrypting: Bool
    ) throws -> [UInt8] {
        let operation = decrypting ? "decrypt" : "encrypt"
        guard !cipher.isAuthenticated else {
            throw CryptoError.invalidArgument(operation, "\(cipher.rawValue) is authenticated; use sealGCM/openGCM")
        }
        if !padding && cipher.blockSize > 1 && data.count % cipher.blockSize != 0 {
            throw CryptoError.invalidArgument(operation, "without padding \(cipher.rawValue) needs a multiple of \(cipher.blockSize) bytes, got \(data.count)")
        }
        let stream = try CipherStream(cipher: cipher, key: key, iv: iv, decrypting: decrypting, padding: padding)
        var output = try stream.update(data)
        output += try stream.finish()
        return output
    }
}
