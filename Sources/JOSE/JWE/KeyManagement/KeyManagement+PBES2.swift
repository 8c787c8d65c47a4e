import CofferJSON
import CryptoOpenSSL

// PBES2 (RFC 7518 §4.8): the key encryption key is PBKDF2 over the passphrase with
//
//   salt = UTF8(alg) || 0x00 || p2s,   iterations = p2c,   length = the A…KW key size
//
// and wraps the CEK with AES Key Wrap.

extension KeyManagement {
    /// The shortest salt input (`p2s`) accepted and made: 8 bytes (RFC 7518 §4.8.1.1).
    static let minimumPBES2SaltLength = 8
    /// The length of the salt input JOSE makes.
    static let pbes2SaltLength = 16

    static func pbes2Encrypt(cek: SecureBytes, passphrase: SecureBytes, recipient: JWERecipient,
                             random: some JWERandomSource, index: Int) throws(JOSEError) -> Encrypted {
        let algorithm = recipient.algorithm
        guard case .pbes2(let digest) = algorithm.family, let kekSize = algorithm.keyEncryptionKeySize else {
            throw JOSEError(.algorithmNotAllowed, "a passphrase is used with PBES2 only, not \(algorithm.rawValue)")
        }
        let iterations = recipient.pbes2Iterations ?? algorithm.defaultPBES2Iterations ?? 0
        guard iterations >= 1000 else {
            throw JOSEError(.invalidKey, "a PBES2 iteration count below 1000 is too weak (RFC 7518 §4.8.1.2); got \(iterations)")
        }
        let salt = try JOSEError.wrapping(.invalidKey, "the PBES2 salt") { try random.pbes2Salt(count: pbes2SaltLength, recipient: index) }
        let kek = try pbes2Key(passphrase: passphrase, algorithm: algorithm, digest: digest, salt: salt, iterations: iterations, length: kekSize)
        let wrapped = try JOSEError.wrapping(.invalidKey, "\(algorithm.rawValue) key wrap") { try AESKeyWrap.wrap(cek, kek: kek) }
        return Encrypted(cek: cek, encryptedKey: wrapped, headerMembers: [
            .init("p2s", .string(Base64URL.encode(salt))), .init("p2c", .number(String(iterations))),
        ])
    }

    /// PBES2 for a reader: `p2c` is checked against ``JOSELimits/maximumPBES2Iterations`` before
    /// any work, `p2s` for its length, then PBKDF2 and the unwrap.
    static func pbes2Decrypt(encryptedKey: [UInt8], header: JOSEHeader, algorithm: KeyManagementAlgorithm, digest: DigestAlgorithm,
                             passphrase: SecureBytes, limits: JOSELimits) throws(JOSEError) -> SecureBytes {
        guard let kekSize = algorithm.keyEncryptionKeySize else {
            throw JOSEError(.algorithmNotAllowed, "\(algorithm.rawValue) is not PBES2")
        }
        let iterations = try checkedPBES2Count(header, limits: limits)
        let salt = try headerBytes(header, "p2s")
        guard salt.count >= minimumPBES2SaltLength else {
            throw JOSEError.malformed("header member \"p2s\"", "the PBES2 salt input has \(salt.count) bytes; at least \(minimumPBES2SaltLength) are required (RFC 7518 §4.8.1.1)")
        }
        let kek = try pbes2Key(passphrase: passphrase, algorithm: algorithm, digest: digest, salt: salt, iterations: iterations, length: kekSize)
        return try unwrap(encryptedKey, kek: kek, algorithm: algorithm)
    }

    /// The `p2c` of `header`, refused when missing, below 1 or above the cap.
    ///
    /// - Throws: ``JOSEError`` `.costTooHigh` naming the count, the cap and
    ///   ``JOSELimits/maximumPBES2Iterations``; `.malformed` when missing or below 1.
    static func checkedPBES2Count(_ header: JOSEHeader, limits: JOSELimits) throws(JOSEError) -> Int {
        guard let count = header.pbes2Count else {
            throw JOSEError.malformed("the JOSE header", "PBES2 needs the iteration count \"p2c\" (an integer)")
        }
        guard count >= 1 else {
            throw JOSEError.malformed("header member \"p2c\"", "the PBES2 iteration count must be positive; it is \(count)")
        }
        guard count <= limits.maximumPBES2Iterations else {
            throw JOSEError(.costTooHigh, "the PBES2 iteration count p2c=\(count) is above the cap of \(limits.maximumPBES2Iterations); raise JOSELimits.maximumPBES2Iterations to accept it")
        }
        return count
    }

    private static func pbes2Key(passphrase: SecureBytes, algorithm: KeyManagementAlgorithm, digest: DigestAlgorithm,
                                 salt: [UInt8], iterations: Int, length: Int) throws(JOSEError) -> SecureBytes {
        let saltInput = Array(algorithm.rawValue.utf8) + [0] + salt
        return try JOSEError.wrapping(.invalidKey, "PBKDF2 for \(algorithm.rawValue)") {
            var derived = try KDF.pbkdf2(password: passphrase, salt: saltInput, iterations: iterations, digest: digest, keyLength: length)
            defer { SecureMemory.zero(&derived) }
            return SecureBytes(derived)
        }
    }
}
