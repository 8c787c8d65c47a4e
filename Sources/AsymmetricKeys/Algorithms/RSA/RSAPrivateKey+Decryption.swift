import CofferErrors
import CryptoOpenSSL

extension RSAPrivateKey {
    /// Decrypts chunked RSAES-OAEP ciphertext (a whole number of k-byte blocks).
    ///
    /// - Parameter padding: an `.oaep(…)` padding (`.oaepSHA256` by default). PKCS#1 v1.5 is only
    ///   available through ``decryptLegacyPKCS1v15(_:)``.
    /// - Throws: ``KeyError`` `.invalidArgument` for a length that is not a multiple of k or
    ///   empty input; `.operationFailed` when a block does not decrypt (wrong key, damaged data).
    public func decrypt(_ ciphertext: [UInt8], padding: RSAEncryptionPadding = .oaepSHA256) throws -> [UInt8] {
        guard case .oaep = padding else {
            throw KeyError(.invalidArgument, padding == .pkcs1
                ? "PKCS#1 v1.5 decryption is legacy: call decryptLegacyPKCS1v15"
                : "raw RSA decryption needs unsafeRawDecrypt")
        }
        return try decryptBlocks(ciphertext, padding: padding)
    }

    /// Decrypts chunked RSAES-PKCS1-v1_5 ciphertext. **Legacy**: PKCS#1 v1.5 decryption is exposed to
    /// Bleichenbacher's adaptive chosen-ciphertext attack whenever a caller can tell a padding
    /// failure from success. The installed OpenSSL 3.0 has no implicit rejection (it arrived in
    /// 3.2), so never report *why* decryption failed to whoever sent the ciphertext. Use OAEP for
    /// anything new.
    public func decryptLegacyPKCS1v15(_ ciphertext: [UInt8]) throws -> [UInt8] {
        try decryptBlocks(ciphertext, padding: .pkcs1)
    }

    /// Raw RSA (c^d mod n) on one k-byte block, no padding check: insecure except as a building block.
    public func unsafeRawDecrypt(_ block: [UInt8]) throws -> [UInt8] {
        let key = try openSSLKey()
        return try KeyError.fromOpenSSL("RSA raw decryption failed", hint: "(wrong key, or the data is damaged)") { try key.decrypt(block, padding: .unsafeNone) }
    }

    private func decryptBlocks(_ ciphertext: [UInt8], padding: RSAEncryptionPadding) throws -> [UInt8] {
        let key = try openSSLKey()
        try RSACiphertext.checkBlocks(ciphertext.count, blockSize: key.blockSize)
        var output: [UInt8] = []
        output.reserveCapacity(ciphertext.count)
        try ciphertext.withUnsafeBufferPointer { all in
            for (index, start) in stride(from: 0, to: all.count, by: key.blockSize).enumerated() {
                let block = Array(all[start..<start + key.blockSize])
                output += try KeyError.fromOpenSSL("RSA \(padding.displayName) decryption of block \(index + 1) failed", hint: "(wrong key, or the data is damaged)") {
                    try key.decrypt(block, padding: padding)
                }
            }
        }
        return output
    }

    /// "Encrypts" `data` with the private key: PKCS#1 type 1 padding on blocks of at most k − 11
    /// bytes (what `openssl rsautl -sign` does), recovered by ``RSAPublicKey/recoverWithPublicKey(_:)``.
    ///
    /// This proves the data came from the private key holder; it does **not** keep it secret.
    public func encryptWithPrivateKey(_ data: [UInt8]) throws -> [UInt8] {
        let key = try openSSLKey()
        let chunk = key.blockSize - 11
        guard chunk > 0 else { throw KeyError(.invalidArgument, "a \(bits)-bit key is too small for PKCS#1 type 1 padding") }
        var output: [UInt8] = []
        var start = 0
        repeat {
            let end = min(start + chunk, data.count)
            output += try KeyError.fromOpenSSL("RSA private-key encryption failed") { try key.signRawPKCS1Type1(Array(data[start..<end])) }
            start = end
        } while start < data.count
        return output
    }
}
