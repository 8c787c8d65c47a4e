internal import COpenSSL

/// One-shot message digests (`EVP_Digest`).
public enum Digest {
    /// Hashes `data` with `algorithm`.
    ///
    /// Wraps `EVP_Digest`. The digests here are built in to OpenSSL's default provider, so the
    /// call cannot fail short of memory exhaustion, which traps.
    public static func hash(_ algorithm: DigestAlgorithm, _ data: [UInt8]) -> [UInt8] {
        data.withUnsafeBytes { hash(algorithm, $0) }
    }

    /// Hashes the bytes in `buffer` with `algorithm` (`EVP_Digest`).
    public static func hash(_ algorithm: DigestAlgorithm, _ buffer: UnsafeRawBufferPointer) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: algorithm.outputSize)
        var length: UInt32 = 0
        let ok = output.withUnsafeMutableBufferPointer { out in
            EVP_Digest(buffer.baseAddress ?? UnsafeRawPointer(out.baseAddress!), buffer.count, out.baseAddress, &length, algorithm.messageDigest, nil)
        }
        guard ok == 1, Int(length) == algorithm.outputSize else {
            fatalError("\(CryptoError.openSSL("EVP_Digest", "\(algorithm.rawValue) failed"))")
        }
        return output
    }
}
