extension KDF {
    /// PBKDF1 (RFC 8018 §5.1), the key derivation of PBES1 (`pbeWithMD5AndDES-CBC`,
    /// `pbeWithSHA1AndDES-CBC`), which OpenSSL 3 offers only inside its PBE cipher setup, not as a
    /// KDF of its own: T₁ = H(P ‖ S), Tᵢ = H(Tᵢ₋₁); the result is T_c, the whole digest (16 bytes
    /// for MD5, 20 for SHA-1), from which the caller takes its key and IV.
    ///
    /// The password is hashed from one buffer that is wiped afterwards, as is every intermediate Tᵢ.
    ///
    /// - Parameter iterations: c, at least 1.
    /// - Throws: ``CryptoError`` `.invalidArgument` for fewer than one iteration.
    package static func pbkdf1(password: SecureBytes, salt: [UInt8], iterations: Int, digest: DigestAlgorithm) throws -> [UInt8] {
        guard iterations >= 1 else {
            throw CryptoError.invalidArgument("PBKDF1", "the iteration count must be at least 1, got \(iterations)")
        }
        let preimage = SecureBytes(count: password.count + salt.count) { out in
            password.withUnsafeBytes { out.copyMemory(from: $0) }
            UnsafeMutableRawBufferPointer(rebasing: out[password.count...]).copyBytes(from: salt)
        }
        var t = preimage.withUnsafeBytes { Digest.hash(digest, $0) }
        for _ in 1..<iterations {
            let next = Digest.hash(digest, t)
            clearBytes(&t)
            t = next
        }
        return t
    }
}
