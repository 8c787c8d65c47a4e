internal import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's DRBG (`RAND_bytes`).
public enum SecureRandom {
    /// Returns `count` random bytes.
    ///
    /// - Throws: ``CryptoError`` `.randomFailure` when the generator is not seeded or fails,
    ///   `.invalidArgument` for a negative count.
    public static func bytes(_ count: Int) throws -> [UInt8] {
        guard count >= 0 else { throw CryptoError.invalidArgument("RAND_bytes", "negative byte count \(count)") }
        var output = [UInt8](repeating: 0, count: count)
        try output.withUnsafeMutableBytes { try fill($0) }
        return output
    }

    /// Fills `buffer` with random bytes (`RAND_bytes`).
    ///
    /// - Throws: ``CryptoError`` `.randomFailure`.
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        var offset = 0
        while offset < buffer.count {
            let chunk = min(buffer.count - offset, Int(Int32.max))
            guard RAND_bytes((base + offset).assumingMemoryBound(to: UInt8.self), Int32(chunk)) == 1 else {
                throw CryptoError.openSSL("RAND_bytes", "the random generator failed", code: .randomFailure)
            }
            offset += chunk
        }
    }
}
