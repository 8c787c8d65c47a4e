import CryptoOpenSSL

/// Decrypts JWEs with a fixed key, key set or passphrase and fixed options: the JWE side of a
/// nested JWT (``JWTDecrypting``), and a value a server keeps to decrypt every token it receives.
///
/// ```swift
/// let decryptor = JWEDecryptor(keySet: ourEncryptionKeys)
/// let jwt = try JWT(verifyingNested: token, decryptor: decryptor, with: issuerSigningKeys)
/// ```
public struct JWEDecryptor: JWTDecrypting {
    private enum Secret: Sendable {
        case key(JOSEKey)
        case keySet(JOSEKeySet)
        case passphrase(SecureBytes)
    }

    private let secret: Secret
    /// The algorithms, `crit` extensions and limits accepted.
    public var options: JWEDecryptionOptions

    /// A decryptor holding one key.
    public init(key: JOSEKey, options: JWEDecryptionOptions = JWEDecryptionOptions()) {
        self.secret = .key(key)
        self.options = options
    }

    /// A decryptor choosing from a key set by each recipient's `kid` and algorithms.
    public init(keySet: JOSEKeySet, options: JWEDecryptionOptions = JWEDecryptionOptions()) {
        self.secret = .keySet(keySet)
        self.options = options
    }

    /// A decryptor for PBES2 JWEs made with `passphrase`.
    public init(passphrase: SecureBytes, options: JWEDecryptionOptions = JWEDecryptionOptions()) {
        self.secret = .passphrase(passphrase)
        self.options = options
    }

    /// Reads and decrypts a JWE in either serialization (``JWEMessage/init(parsing:limits:)``).
    ///
    /// - Throws: ``JOSEError``, as ``JWEMessage/init(parsing:limits:)`` and
    ///   ``JWEMessage/decrypt(with:options:)-(JOSEKey,_)`` do.
    public func decrypt(_ bytes: [UInt8]) throws(JOSEError) -> DecryptedJWE {
        try decrypt(JWEMessage(parsing: bytes, limits: options.limits))
    }

    /// Decrypts a JWE already read.
    public func decrypt(_ message: JWEMessage) throws(JOSEError) -> DecryptedJWE {
        switch secret {
        case .key(let key): try message.decrypt(with: key, options: options)
        case .keySet(let set): try message.decrypt(with: set, options: options)
        case .passphrase(let passphrase): try message.decrypt(passphrase: passphrase, options: options)
        }
    }

    /// The outer JWE of a nested JWT: its JOSE header and plaintext (``JWTDecrypting``).
    public func decrypt(compactJWE: String) throws(JOSEError) -> (header: JOSEHeader, plaintext: [UInt8]) {
        let result = try decrypt(JWEMessage(compact: compactJWE, limits: options.limits))
        return (result.header, result.plaintext)
    }
}
