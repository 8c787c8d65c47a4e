internal import COpenSSL

/// AES in ECB mode without padding, encryption direction only, with a fixed key: the block
/// function under ``AESCFBStream``.
///
/// Owns one `EVP_CIPHER_CTX` initialised once with `EVP_aes_128_ecb` / `EVP_aes_256_ecb`.
///
/// `@unchecked Sendable` is safe because the context is never re-initialised after `init`, and
/// every call passes whole 16-byte blocks with padding disabled: OpenSSL then never buffers a
/// partial block, and an ECB update only reads the expanded key schedule and writes to the
/// caller's output. Several stream copies on several threads can therefore share one instance.
final class AESBlockEncryptor: @unchecked Sendable {
    private let context: OpaquePointer

    /// Sets up AES-ECB encryption with `key` (16 or 32 bytes). OpenSSL copies the key into its key
    /// schedule; `key` itself is not kept.
    init(key: some ByteSource, keySize: AESKeySize) {
        precondition(key.count == keySize.rawValue, "AES key must be \(keySize.rawValue) bytes, got \(key.count)")
        guard let context = EVP_CIPHER_CTX_new() else {
            fatalError("\(CryptoError.openSSL("EVP_CIPHER_CTX_new", "out of memory"))")
        }
        let cipher = keySize == .aes128 ? EVP_aes_128_ecb() : EVP_aes_256_ecb()
        let ok = key.withUnsafeBytes { keyBytes in
            EVP_EncryptInit_ex(context, cipher, nil, keyBytes.bindMemory(to: UInt8.self).baseAddress, nil)
        }
        guard ok == 1, EVP_CIPHER_CTX_set_padding(context, 0) == 1 else {
            let error = CryptoError.openSSL("EVP_EncryptInit_ex", "cannot set up AES-ECB")
            EVP_CIPHER_CTX_free(context)
            fatalError("\(error)")
        }
        self.context = context
    }

    deinit {
        EVP_CIPHER_CTX_free(context)
    }

    /// Encrypts `blockCount` whole blocks from `input` into `output`; they may be the same memory.
    @inline(__always)
    func encryptBlocks(_ input: UnsafeRawPointer, into output: UnsafeMutableRawPointer, blockCount: Int) {
        var written: Int32 = 0
        let ok = EVP_EncryptUpdate(
            context,
            output.assumingMemoryBound(to: UInt8.self),
            &written,
            input.assumingMemoryBound(to: UInt8.self),
            Int32(blockCount &* 16)
        )
        if ok != 1 {
            fatalError("\(CryptoError.openSSL("EVP_EncryptUpdate", "AES-ECB block encryption failed"))")
        }
    }
}
