internal import COpenSSL
import Synchronization

/// `EVP_CIPHER` objects fetched once with `EVP_CIPHER_fetch` and kept for the life of the process.
final class FetchedCiphers: Sendable {
    static let shared = FetchedCiphers()

    /// Keyed by the OpenSSL algorithm name.
    private let table = Mutex<[String: CipherHandle]>([:])

    /// The fetched cipher, loading the legacy provider first when the cipher needs it.
    ///
    /// - Throws: ``CryptoError`` `.unsupported` when OpenSSL does not offer the cipher.
    func cipher(_ cipher: SymmetricCipher) throws -> OpaquePointer {
        try self.cipher(named: cipher.rawValue, needsLegacyProvider: cipher.needsLegacyProvider)
    }

    /// The fetched cipher of OpenSSL name `name`, for the ciphers that are not a
    /// ``SymmetricCipher`` case (the `AES-*-WRAP` ciphers of ``AESKeyWrap``).
    ///
    /// - Throws: ``CryptoError`` `.unsupported` when OpenSSL does not offer the cipher.
    func cipher(named name: String, needsLegacyProvider: Bool = false) throws -> OpaquePointer {
        if let handle = table.withLock({ $0[name] }) {
            return handle.pointer
        }
        if needsLegacyProvider {
            try LegacyProvider.load()
        }
        guard let pointer = EVP_CIPHER_fetch(nil, name, nil) else {
            throw CryptoError.openSSL("EVP_CIPHER_fetch", "cipher \(name) is not available", code: .unsupported)
        }
        let handle = CipherHandle(pointer)
        return table.withLock { entries in
            if let existing = entries[name] { return existing.pointer }
            entries[name] = handle
            return handle.pointer
        }
    }

    /// Owns one fetched `EVP_CIPHER`.
    ///
    /// `@unchecked Sendable` is safe: a fetched `EVP_CIPHER` is immutable and reference counted,
    /// and OpenSSL documents it as shareable between threads.
    final class CipherHandle: @unchecked Sendable {
        let pointer: OpaquePointer

        init(_ pointer: OpaquePointer) { self.pointer = pointer }

        deinit { EVP_CIPHER_free(pointer) }
    }
}

extension SymmetricCipher {
    /// The key, IV and block lengths as the fetched `EVP_CIPHER` reports them
    /// (`EVP_CIPHER_get_key_length`, `EVP_CIPHER_get_iv_length`, `EVP_CIPHER_get_block_size`).
    func openSSLReportedSizes() throws -> (key: Int, iv: Int, block: Int) {
        let evpCipher = try FetchedCiphers.shared.cipher(self)
        return (Int(EVP_CIPHER_get_key_length(evpCipher)), Int(EVP_CIPHER_get_iv_length(evpCipher)), Int(EVP_CIPHER_get_block_size(evpCipher)))
    }
}
