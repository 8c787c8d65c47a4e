internal import COpenSSL

/// Keyed-hash message authentication codes (RFC 2104).
public enum HMAC {
    /// Computes HMAC(`key`, `data`) with `algorithm` (`EVP_Q_mac` with `HMAC`).
    ///
    /// - Throws: ``CryptoError`` with code `.openSSL` when OpenSSL rejects the computation.
    public static func authenticationCode(_ algorithm: DigestAlgorithm, key: [UInt8], data: [UInt8]) throws -> [UInt8] {
        try key.withUnsafeBytes { keyBytes in
            try data.withUnsafeBytes { dataBytes in
                try authenticationCode(algorithm, key: keyBytes, data: dataBytes)
            }
        }
    }

    /// Computes HMAC with a key held in ``SecureBytes``.
    ///
    /// - Throws: ``CryptoError`` with code `.openSSL` when OpenSSL rejects the computation.
    public static func authenticationCode(_ algorithm: DigestAlgorithm, key: SecureBytes, data: [UInt8]) throws -> [UInt8] {
        try key.withUnsafeBytes { keyBytes in
            try data.withUnsafeBytes { dataBytes in
                try authenticationCode(algorithm, key: keyBytes, data: dataBytes)
            }
        }
    }

    /// Computes HMAC over raw buffers, so a key held in ``SecureBytes`` is never copied into an array.
    ///
    /// The `EVP_MAC` is fetched once (``FetchedMAC``); each call makes an `EVP_MAC_CTX` for it
    /// (`EVP_MAC_CTX_new`, `EVP_MAC_init` with the digest, `EVP_MAC_update`, `EVP_MAC_final`),
    /// which is what `EVP_Q_mac` did less the fetch of the MAC on every call.
    public static func authenticationCode(_ algorithm: DigestAlgorithm, key: UnsafeRawBufferPointer, data: UnsafeRawBufferPointer) throws -> [UInt8] {
        OpenSSLErrorQueue.clear()
        guard let mac = FetchedMAC.shared?.pointer else {
            throw CryptoError.openSSL("EVP_MAC_fetch", "HMAC is not available", code: .unsupported)
        }
        guard let context = EVP_MAC_CTX_new(mac) else { throw CryptoError.openSSL("EVP_MAC_CTX_new", "out of memory") }
        defer { EVP_MAC_CTX_free(context) }
        var placeholder: UInt8 = 0
        let started = withUnsafeMutablePointer(to: &placeholder) { empty in
            algorithm.openSSLName.withCString { name in
                withUnsafeTemporaryAllocation(of: OSSL_PARAM.self, capacity: 2) { parameters in
                    parameters[0] = OSSL_PARAM_construct_utf8_string("digest", UnsafeMutablePointer(mutating: name), 0)
                    parameters[1] = OSSL_PARAM_construct_end()
                    // A zero-length key still needs a pointer: with none, OpenSSL would not key the context.
                    let keyBytes = key.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(empty)
                    return EVP_MAC_init(context, keyBytes, key.count, parameters.baseAddress)
                }
            }
        }
        guard started == 1 else { throw CryptoError.openSSL("EVP_MAC_init", "HMAC-\(algorithm.rawValue) failed") }
        if let bytes = data.baseAddress, data.count > 0 {
            guard EVP_MAC_update(context, bytes.assumingMemoryBound(to: UInt8.self), data.count) == 1 else {
                throw CryptoError.openSSL("EVP_MAC_update", "HMAC-\(algorithm.rawValue) failed")
            }
        }
        var length = 0
        var output = [UInt8](repeating: 0, count: algorithm.outputSize)
        let finished = output.withUnsafeMutableBufferPointer { out in
            EVP_MAC_final(context, out.baseAddress, &length, out.count)
        }
        guard finished == 1, length == algorithm.outputSize else {
            throw CryptoError.openSSL("EVP_MAC_final", "HMAC-\(algorithm.rawValue) failed")
        }
        return output
    }

    /// The `EVP_MAC` named `HMAC`, fetched once with `EVP_MAC_fetch` and kept for the life of the
    /// process (`nil` if the provider lacks it).
    ///
    /// `@unchecked Sendable` is safe: the pointer is set once in `init` and never changed, and a
    /// fetched `EVP_MAC` is immutable, reference counted and meant to be shared between threads.
    final class FetchedMAC: @unchecked Sendable {
        static let shared = FetchedMAC()

        let pointer: OpaquePointer

        private init?() {
            guard let pointer = EVP_MAC_fetch(nil, "HMAC", nil) else { return nil }
            self.pointer = pointer
        }

        deinit { EVP_MAC_free(pointer) }
    }
}
