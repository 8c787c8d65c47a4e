internal import COpenSSL

/// Password-based key derivation: PBKDF2 (RFC 8018), scrypt (RFC 7914), OpenSSL's legacy
/// `EVP_BytesToKey`, the PKCS#12 KDF (RFC 7292) and, for Coffer's own modules, PBKDF1. Every
/// function takes the password as `[UInt8]` or ``SecureBytes``.
public enum KDF {
    /// PBKDF2 with HMAC-`digest` (`PKCS5_PBKDF2_HMAC`).
    ///
    /// - Parameters:
    ///   - iterations: At least 1.
    ///   - keyLength: The derived key length in bytes, at least 1.
    /// - Throws: ``CryptoError`` `.invalidArgument` for non-positive counts, `.openSSL` on failure.
    public static func pbkdf2(password: [UInt8], salt: [UInt8], iterations: Int, digest: DigestAlgorithm, keyLength: Int) throws -> [UInt8] {
        try password.withUnsafeBytes { try pbkdf2(password: $0, salt: salt, iterations: iterations, digest: digest, keyLength: keyLength) }
    }

    /// PBKDF2 with the password in ``SecureBytes``; see ``pbkdf2(password:salt:iterations:digest:keyLength:)-([UInt8],_,_,_,_)``.
    public static func pbkdf2(password: SecureBytes, salt: [UInt8], iterations: Int, digest: DigestAlgorithm, keyLength: Int) throws -> [UInt8] {
        try password.withUnsafeBytes { try pbkdf2(password: $0, salt: salt, iterations: iterations, digest: digest, keyLength: keyLength) }
    }

    /// scrypt (`EVP_PBE_scrypt`).
    ///
    /// - Parameters:
    ///   - n: The CPU/memory cost, a power of two greater than 1.
    ///   - r: The block size factor.
    ///   - p: The parallelisation factor.
    ///   - maxMemory: The most memory OpenSSL may use (128·N·r·p bytes and a little more are needed).
    /// - Throws: ``CryptoError`` `.invalidArgument` for bad parameters or when they need more than
    ///   `maxMemory`, `.openSSL` on failure.
    public static func scrypt(
        password: [UInt8], salt: [UInt8], n: UInt64, r: UInt64, p: UInt64, keyLength: Int, maxMemory: UInt64 = 1 << 30
    ) throws -> [UInt8] {
        try password.withUnsafeBytes {
            try scrypt(password: $0, salt: salt, n: n, r: r, p: p, keyLength: keyLength, maxMemory: maxMemory)
        }
    }

    /// scrypt with the password in ``SecureBytes``; see ``scrypt(password:salt:n:r:p:keyLength:maxMemory:)-([UInt8],_,_,_,_,_,_)``.
    public static func scrypt(
        password: SecureBytes, salt: [UInt8], n: UInt64, r: UInt64, p: UInt64, keyLength: Int, maxMemory: UInt64 = 1 << 30
    ) throws -> [UInt8] {
        try password.withUnsafeBytes {
            try scrypt(password: $0, salt: salt, n: n, r: r, p: p, keyLength: keyLength, maxMemory: maxMemory)
        }
    }

    /// OpenSSL's legacy key derivation (`EVP_BytesToKey`), used by Proc-Type/DEK-Info encrypted PEM
    /// keys (there with MD5, one round, and the first 8 bytes of the DEK-Info IV as the salt) and by
    /// `openssl enc` without `-pbkdf2`.
    ///
    /// D₁ = H^count(password ‖ salt), Dᵢ = H^count(Dᵢ₋₁ ‖ password ‖ salt); the key is the first
    /// `keyLength` bytes of D₁ ‖ D₂ ‖ …, the IV the `ivLength` bytes after it. Built on ``DigestContext``
    /// rather than `EVP_BytesToKey` itself because that call takes its lengths from an
    /// `EVP_CIPHER`, and callers here need arbitrary lengths.
    ///
    /// - Parameters:
    ///   - salt: `nil`, or exactly 8 bytes (OpenSSL reads exactly 8).
    ///   - count: Hash iterations per block, at least 1.
    /// - Throws: ``CryptoError`` `.invalidArgument` for a salt that is not 8 bytes or bad lengths.
    public static func evpBytesToKey(
        digest: DigestAlgorithm, password: [UInt8], salt: [UInt8]?, keyLength: Int, ivLength: Int, count: Int = 1
    ) throws -> (key: [UInt8], iv: [UInt8]) {
        try password.withUnsafeBytes {
            try evpBytesToKey(digest: digest, password: $0, salt: salt, keyLength: keyLength, ivLength: ivLength, count: count)
        }
    }

    /// `EVP_BytesToKey` with the password in ``SecureBytes``.
    public static func evpBytesToKey(
        digest: DigestAlgorithm, password: SecureBytes, salt: [UInt8]?, keyLength: Int, ivLength: Int, count: Int = 1
    ) throws -> (key: [UInt8], iv: [UInt8]) {
        try password.withUnsafeBytes {
            try evpBytesToKey(digest: digest, password: $0, salt: salt, keyLength: keyLength, ivLength: ivLength, count: count)
        }
    }

    // MARK: - Implementations over raw buffers

    static func pbkdf2(password: UnsafeRawBufferPointer, salt: [UInt8], iterations: Int, digest: DigestAlgorithm, keyLength: Int) throws -> [UInt8] {
        let operation = "PKCS5_PBKDF2_HMAC"
        guard iterations >= 1, iterations <= Int(Int32.max) else {
            throw CryptoError.invalidArgument(operation, "iteration count must be between 1 and \(Int32.max), got \(iterations)")
        }
        guard keyLength >= 1, keyLength <= Int(Int32.max) else {
            throw CryptoError.invalidArgument(operation, "key length must be positive, got \(keyLength)")
        }
        guard password.count <= Int(Int32.max), salt.count <= Int(Int32.max) else {
            throw CryptoError.invalidArgument(operation, "password or salt too long")
        }
        let (ok, key) = derive(password: password, salt: salt, keyLength: keyLength) { passwordBytes, saltBytes, out in
            PKCS5_PBKDF2_HMAC(passwordBytes, Int32(password.count), saltBytes, Int32(salt.count),
                              Int32(iterations), digest.messageDigest, Int32(keyLength), out)
        }
        guard ok == 1 else {
            throw CryptoError.openSSL(operation, "PBKDF2-HMAC-\(digest.rawValue) failed")
        }
        return key
    }

    static func scrypt(
        password: UnsafeRawBufferPointer, salt: [UInt8], n: UInt64, r: UInt64, p: UInt64, keyLength: Int, maxMemory: UInt64
    ) throws -> [UInt8] {
        let operation = "EVP_PBE_scrypt"
        guard n > 1, n & (n - 1) == 0 else {
            throw CryptoError.invalidArgument(operation, "N must be a power of two greater than 1, got \(n)")
        }
        guard r >= 1, p >= 1, keyLength >= 1 else {
            throw CryptoError.invalidArgument(operation, "r, p and the key length must be positive")
        }
        // Check the parameters and memory first (a null key asks OpenSSL only to validate them).
        guard EVP_PBE_scrypt(nil, 0, nil, 0, n, r, p, maxMemory, nil, 0) == 1 else {
            throw CryptoError.openSSL(operation, "N=\(n), r=\(r), p=\(p) are invalid or need more than \(maxMemory) bytes of memory", code: .invalidArgument)
        }
        let (ok, key) = derive(password: password, salt: salt, keyLength: keyLength) { passwordBytes, saltBytes, out in
            EVP_PBE_scrypt(passwordBytes, password.count, saltBytes, salt.count, n, r, p, maxMemory, out, keyLength)
        }
        guard ok == 1 else {
            throw CryptoError.openSSL(operation, "scrypt failed")
        }
        return key
    }

    /// Runs a KDF call that writes `keyLength` bytes, with the password and salt as C pointers
    /// (never null: OpenSSL rejects a null pointer even for an empty password or salt).
    private static func derive(
        password: UnsafeRawBufferPointer, salt: [UInt8], keyLength: Int,
        _ call: (UnsafePointer<CChar>, UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>?) -> Int32
    ) -> (status: Int32, key: [UInt8]) {
        var key = [UInt8](repeating: 0, count: keyLength)
        var empty: UInt8 = 0
        let status = withUnsafeMutablePointer(to: &empty) { placeholder in
            salt.withUnsafeBufferPointer { saltBytes in
                key.withUnsafeMutableBufferPointer { out in
                    call(password.baseAddress.map { $0.assumingMemoryBound(to: CChar.self) } ?? UnsafeRawPointer(placeholder).assumingMemoryBound(to: CChar.self),
                         saltBytes.baseAddress ?? UnsafePointer(placeholder), out.baseAddress)
                }
            }
        }
        return (status, key)
    }

    static func evpBytesToKey(
        digest: DigestAlgorithm, password: UnsafeRawBufferPointer, salt: [UInt8]?, keyLength: Int, ivLength: Int, count: Int
    ) throws -> (key: [UInt8], iv: [UInt8]) {
        let operation = "EVP_BytesToKey"
        if let salt, salt.count != 8 {
            throw CryptoError.invalidArgument(operation, "the salt must be 8 bytes, got \(salt.count)")
        }
        guard keyLength >= 0, ivLength >= 0, count >= 1 else {
            throw CryptoError.invalidArgument(operation, "lengths must not be negative and the count must be at least 1")
        }
        let context = DigestContext(digest)
        var material: [UInt8] = []
        material.reserveCapacity(keyLength + ivLength + digest.outputSize)
        var previous: [UInt8] = []
        defer { clearBytes(&previous) }
        while material.count < keyLength + ivLength {
            context.update(previous)
            context.update(password)
            if let salt { context.update(salt) }
            clearBytes(&previous)
            previous = context.finalize()
            for _ in 1..<count {
                let next = Digest.hash(digest, previous)
                clearBytes(&previous)
                previous = next
            }
            material += previous
        }
        defer { clearBytes(&material) }
        return (Array(material[0..<keyLength]), Array(material[keyLength..<keyLength + ivLength]))
    }

    /// Overwrites a temporary array that held key material.
    static func clearBytes(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { SecureMemory.zero($0) }
    }
}
