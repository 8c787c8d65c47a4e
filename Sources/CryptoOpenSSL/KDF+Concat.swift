extension KDF {
    /// The single-step key derivation function of NIST SP 800-56A (rev. 2 §5.8.1, "Concat KDF"),
    /// as JWE's ECDH-ES derives its keys (RFC 7518 §4.6.2) — composed here over ``DigestContext``,
    /// as OpenSSL 3.0's `SSKDF` is not used so that the hash runs over wiped buffers only:
    ///
    /// ```
    /// K(i) = H(counter_i || Z || OtherInfo),  counter_i = i as a 32-bit big-endian integer, i = 1, 2, …
    /// DerivedKeyingMaterial = the first keyLength bytes of K(1) || K(2) || …
    /// ```
    ///
    /// - Parameters:
    ///   - sharedSecret: Z, the shared secret of the key agreement.
    ///   - otherInfo: OtherInfo, already encoded by the caller (for JWE: AlgorithmID,
    ///     PartyUInfo, PartyVInfo as length-prefixed fields, then SuppPubInfo, the key length in
    ///     bits as a 32-bit big-endian integer).
    ///   - keyLength: The derived key length in bytes, 1 to 1024.
    ///   - digest: H; JWE uses SHA-256.
    /// - Returns: The derived key, in wiped storage.
    /// - Throws: ``CryptoError`` `.invalidArgument` for a key length outside 1…1024.
    public static func concat(sharedSecret: SecureBytes, otherInfo: [UInt8], keyLength: Int, digest: DigestAlgorithm = .sha256) throws -> SecureBytes {
        guard (1...1024).contains(keyLength) else {
            throw CryptoError.invalidArgument("ConcatKDF", "the derived key length must be 1 to 1024 bytes, got \(keyLength)")
        }
        let context = DigestContext(digest)
        return SecureBytes(count: keyLength) { out in
            var counter: UInt32 = 1
            var written = 0
            while written < keyLength {
                context.update([UInt8(truncatingIfNeeded: counter >> 24), UInt8(truncatingIfNeeded: counter >> 16),
                                UInt8(truncatingIfNeeded: counter >> 8), UInt8(truncatingIfNeeded: counter)])
                sharedSecret.withUnsafeBytes { context.update($0) }
                context.update(otherInfo)
                var block = context.finalize()
                let take = min(block.count, keyLength - written)
                block.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[written..<written + take]).copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<take])) }
                clearBytes(&block)
                written += take
                counter += 1
            }
        }
    }
}
