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
    public static func authenticationCode(_ algorithm: DigestAlgorithm, key: UnsafeRawBufferPointer, data: UnsafeRawBufferPointer) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: algorithm.outputSize)
        var length = 0
        var placeholder: UInt8 = 0
        let result = withUnsafeMutablePointer(to: &placeholder) { empty in
            output.withUnsafeMutableBufferPointer { out in
                EVP_Q_mac(
                    nil, "HMAC", nil, algorithm.openSSLName, nil,
                    key.baseAddress ?? UnsafeRawPointer(empty), key.count,
                    data.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(empty), data.count,
                    out.baseAddress, out.count, &length
                )
            }
        }
        guard result != nil, length == algorithm.outputSize else {
            throw CryptoError.openSSL("EVP_Q_mac", "HMAC-\(algorithm.rawValue) failed")
        }
        return output
    }
}
