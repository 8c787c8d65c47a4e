import CofferErrors
import CryptoOpenSSL

extension PBEAlgorithm {
    /// Derives the cipher key and IV from `passphrase`.
    ///
    /// - Throws: ``KeyError`` `.unsupportedEncryption` when OpenSSL lacks the algorithm (single
    ///   DES without the legacy provider), `.malformed` for parameters the KDF rejects.
    ///
    /// - Parameter absentPassword: For the PKCS#12 derivation and an empty passphrase: derive from
    ///   no password at all (zero bytes) rather than the empty BMPString (two zero bytes).
    func deriveKeyAndIV(_ passphrase: SecureBytes, absentPassword: Bool = false) throws -> (key: SecureBytes, iv: [UInt8]) {
        try KeyError.fromOpenSSL("key derivation (\(kdfName)) failed", code: .malformed) {
            switch derivation {
            case .pbkdf2(let salt, let iterations, let prf):
                var key = try KDF.pbkdf2(password: passphrase, salt: salt, iterations: iterations, digest: prf, keyLength: cipher.keySize)
                defer { SecureMemory.zero(&key) }
                return (SecureBytes(key), iv ?? [])
            case .scrypt(let salt, let n, let r, let p):
                var key = try KDF.scrypt(password: passphrase, salt: salt, n: n, r: r, p: p, keyLength: cipher.keySize,
                                         maxMemory: max(PBEAlgorithm.scryptMaxMemory, KDFLimits.current.maximumMemory.multipliedReportingOverflow(by: 2).partialValue))
                defer { SecureMemory.zero(&key) }
                return (SecureBytes(key), iv ?? [])
            case .pbkdf1(let salt, let iterations, let digest):
                var derived = try KDF.pbkdf1(password: passphrase, salt: salt, iterations: iterations, digest: digest)
                defer { SecureMemory.zero(&derived) }
                return (SecureBytes(Array(derived[0..<8])), Array(derived[8..<16]))
            case .pkcs12(let salt, let iterations):
                var password = absentPassword && passphrase.count == 0 ? [] : PKCS12KeyDerivation.bmpPassword(passphrase)
                defer { SecureMemory.zero(&password) }
                var key = try KDF.pkcs12(bmpPassword: password, salt: salt, purpose: .key, iterations: iterations, digest: .sha1, keyLength: cipher.keySize)
                defer { SecureMemory.zero(&key) }
                let iv = try KDF.pkcs12(bmpPassword: password, salt: salt, purpose: .iv, iterations: iterations, digest: .sha1, keyLength: cipher.ivSize)
                return (SecureBytes(key), iv)
            }
        }
    }
}
