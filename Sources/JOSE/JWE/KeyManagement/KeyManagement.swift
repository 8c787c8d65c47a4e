import AsymmetricKeys
import CofferJSON
import CryptoOpenSSL

/// The key management step of JWE (RFC 7516 §5.1 steps 1–7, §5.2 steps 9–10; RFC 7518 §4): how
/// the content encryption key (CEK) is encrypted for, agreed with, or shared with one recipient.
enum KeyManagement {
    /// The outcome of the key management of one recipient when encrypting.
    struct Encrypted {
        /// The CEK: the one given, or the one `dir` / `ECDH-ES` decided.
        var cek: SecureBytes
        /// The JWE Encrypted Key; empty for `dir` and `ECDH-ES`.
        var encryptedKey: [UInt8]
        /// The header members the algorithm adds (`epk`, `apu`, `apv`, `iv`, `tag`, `p2s`, `p2c`).
        var headerMembers: [JSONValue.Member]
    }

    /// Encrypts `cek` for `recipient`, or, for `dir` and `ECDH-ES` (`cek` is then `nil`),
    /// decides the CEK.
    ///
    /// - Throws: ``JOSEError`` `.algorithmNotAllowed` when the key does not fit the algorithm,
    ///   `.invalidKey`, `.unsupportedAlgorithm` (RSA1_5, which JOSE never encrypts with).
    static func encrypt(cek: SecureBytes?, for recipient: JWERecipient, encryption: ContentEncryptionAlgorithm,
                        random: some JWERandomSource, index: Int) throws(JOSEError) -> Encrypted {
        let algorithm = recipient.algorithm
        switch recipient.secret {
        case .passphrase(let passphrase):
            guard case .pbes2 = algorithm.family else {
                throw JOSEError(.algorithmNotAllowed, "a passphrase is used with PBES2 only, not \(algorithm.rawValue)")
            }
            return try pbes2Encrypt(cek: requireCEK(cek, algorithm), passphrase: passphrase, recipient: recipient, random: random, index: index)
        case .key(let key):
            try key.checkAllows(algorithm, encryption: encryption)
            try key.checkUsableForEncryption(algorithm, decrypting: false)
            switch (algorithm.family, key.material) {
            case (.rsa(let padding), .asymmetric(let asymmetric)):
                guard algorithm != .rsa1_5 else {
                    throw JOSEError(.unsupportedAlgorithm, "JOSE does not encrypt with RSA1_5 (RSAES-PKCS1-v1_5); use RSA-OAEP-256")
                }
                let cek = try requireCEK(cek, algorithm)
                let rsa = try JOSEError.wrapping(.invalidKey, "the recipient's RSA key") { try asymmetric.publicKey().requireRSA(for: "RSA-OAEP") }
                let encrypted = try JOSEError.wrapping(.invalidKey, "\(algorithm.rawValue) encryption of the CEK") {
                    var copy = cek.withUnsafeBytes { Array($0) }
                    defer { SecureMemory.zero(&copy) }
                    return try rsa.encrypt(copy, padding: padding)
                }
                return Encrypted(cek: cek, encryptedKey: encrypted, headerMembers: [])
            case (.aesKeyWrap, .symmetric(let kek)):
                let cek = try requireCEK(cek, algorithm)
                let wrapped = try JOSEError.wrapping(.invalidKey, "\(algorithm.rawValue) key wrap") { try AESKeyWrap.wrap(cek, kek: kek) }
                return Encrypted(cek: cek, encryptedKey: wrapped, headerMembers: [])
            case (.aesGCMKeyWrap, .symmetric(let kek)):
                let cek = try requireCEK(cek, algorithm)
                let iv = try JOSEError.wrapping(.invalidKey, "the key wrap IV") { try random.keyWrapInitializationVector(count: 12, recipient: index) }
                let sealed = try JOSEError.wrapping(.invalidKey, "\(algorithm.rawValue) key wrap") {
                    var copy = cek.withUnsafeBytes { Array($0) }
                    defer { SecureMemory.zero(&copy) }
                    return try Cipher.sealGCM(gcmCipher(kek.count), key: kek, iv: iv, copy)
                }
                return Encrypted(cek: cek, encryptedKey: sealed.ciphertext, headerMembers: [
                    .init("iv", .string(Base64URL.encode(iv))), .init("tag", .string(Base64URL.encode(sealed.tag))),
                ])
            case (.direct, .symmetric(let secret)):
                guard cek == nil else { throw onlyRecipient(algorithm) }
                return Encrypted(cek: secret, encryptedKey: [], headerMembers: [])
            case (.ecdh(let wrapped), .asymmetric(let asymmetric)):
                if !wrapped && cek != nil { throw onlyRecipient(algorithm) }
                return try ecdhEncrypt(cek: cek, recipientKey: asymmetric, recipient: recipient, encryption: encryption, random: random, index: index)
            default:
                throw JOSEError(.algorithmNotAllowed, "the key\(key.keyIDText) does not fit \(algorithm.rawValue)")
            }
        }
    }

    /// Recovers the CEK of one recipient (RFC 7516 §5.2 steps 9–10).
    ///
    /// - Parameters:
    ///   - header: The recipient's JOSE Header (protected, shared and per-recipient members).
    ///   - secret: The key (its `alg`, type and size already checked against `algorithm`), or a passphrase.
    /// - Throws: ``JOSEError`` `.decryptionFailed` (a wrong key, altered data), `.malformed` (a
    ///   missing or bad header member, an encrypted key where none belongs), `.invalidKey` (a
    ///   public key, a bad `epk`), `.costTooHigh` (PBES2 `p2c` above the cap, before any work).
    static func decrypt(encryptedKey: [UInt8], header: JOSEHeader, algorithm: KeyManagementAlgorithm, encryption: ContentEncryptionAlgorithm,
                        secret: JWERecipient.Secret, options: JWEDecryptionOptions) throws(JOSEError) -> SecureBytes {
        if algorithm.hasEmptyEncryptedKey && !encryptedKey.isEmpty {
            throw JOSEError.malformed("the JWE encrypted key", "\(algorithm.rawValue) has an empty encrypted key; this one has \(encryptedKey.count) bytes")
        }
        switch (algorithm.family, secret) {
        case (.pbes2(let digest), .passphrase(let passphrase)):
            return try pbes2Decrypt(encryptedKey: encryptedKey, header: header, algorithm: algorithm, digest: digest,
                                    passphrase: passphrase, limits: options.limits)
        case (.rsa(let padding), .key(let key)):
            guard case .asymmetric(let asymmetric) = key.material, case .rsa(let rsa)? = asymmetric.privateKey else {
                throw JOSEError(.invalidKey, "\(algorithm.rawValue) needs the recipient's RSA private key")
            }
            return try rsaDecrypt(encryptedKey, key: rsa, padding: padding, algorithm: algorithm, encryption: encryption)
        case (.aesKeyWrap, .key(let key)):
            guard let kek = key.secret else { throw JOSEError(.invalidKey, "\(algorithm.rawValue) needs a symmetric key") }
            return try unwrap(encryptedKey, kek: kek, algorithm: algorithm)
        case (.aesGCMKeyWrap, .key(let key)):
            guard let kek = key.secret else { throw JOSEError(.invalidKey, "\(algorithm.rawValue) needs a symmetric key") }
            let iv = try headerBytes(header, "iv")
            let tag = try headerBytes(header, "tag")
            guard iv.count == 12, tag.count == 16 else {
                throw JOSEError.malformed("the JOSE header", "\(algorithm.rawValue) needs a 96-bit \"iv\" and a 128-bit \"tag\"; they have \(iv.count * 8) and \(tag.count * 8) bits")
            }
            return try JOSEError.wrapping(.decryptionFailed, "\(algorithm.rawValue) key unwrap (wrong key, or altered data)") {
                var cek = try Cipher.openGCM(gcmCipher(kek.count), key: kek, iv: iv, encryptedKey, tag: tag)
                defer { SecureMemory.zero(&cek) }
                return SecureBytes(cek)
            }
        case (.direct, .key(let key)):
            guard let secret = key.secret else { throw JOSEError(.invalidKey, "dir needs a symmetric key") }
            return secret
        case (.ecdh(let wrapped), .key(let key)):
            guard case .asymmetric(let asymmetric) = key.material, let privateKey = asymmetric.privateKey else {
                throw JOSEError(.invalidKey, "\(algorithm.rawValue) needs the recipient's private key")
            }
            return try ecdhDecrypt(encryptedKey: encryptedKey, header: header, algorithm: algorithm, wrapped: wrapped,
                                   encryption: encryption, privateKey: privateKey)
        case (.pbes2, .key):
            throw JOSEError(.algorithmNotAllowed, "\(algorithm.rawValue) takes a passphrase, not a key")
        case (_, .passphrase):
            throw JOSEError(.algorithmNotAllowed, "a passphrase is used with PBES2 only, not \(algorithm.rawValue)")
        }
    }

    /// RSA decryption of the CEK. With RSA1_5 a padding failure, or a CEK of the wrong length,
    /// continues with a random CEK, so that it fails later as a wrong tag does (RFC 7516 §11.5).
    private static func rsaDecrypt(_ encryptedKey: [UInt8], key: RSAPrivateKey, padding: RSAEncryptionPadding,
                                   algorithm: KeyManagementAlgorithm, encryption: ContentEncryptionAlgorithm) throws(JOSEError) -> SecureBytes {
        let modulusLength = (key.bits + 7) / 8
        guard encryptedKey.count == modulusLength else {
            throw JOSEError(.decryptionFailed, "the \(algorithm.rawValue) encrypted key has \(encryptedKey.count) bytes; the \(key.bits)-bit key takes \(modulusLength)")
        }
        if padding == .pkcs1 {
            let substitute = try JOSEError.wrapping(.decryptionFailed, "the random CEK") { try SecureBytes(randomCount: encryption.keySize) }
            guard var decrypted = try? key.decryptLegacyPKCS1v15(encryptedKey) else { return substitute }
            defer { SecureMemory.zero(&decrypted) }
            return decrypted.count == encryption.keySize ? SecureBytes(decrypted) : substitute
        }
        var decrypted = try JOSEError.wrapping(.decryptionFailed, "\(algorithm.rawValue) decryption of the CEK (wrong key, or altered data)") {
            try key.decrypt(encryptedKey, padding: padding)
        }
        defer { SecureMemory.zero(&decrypted) }
        return SecureBytes(decrypted)
    }

    /// AES Key Unwrap of the CEK under `kek`.
    static func unwrap(_ encryptedKey: [UInt8], kek: some ByteSource, algorithm: KeyManagementAlgorithm) throws(JOSEError) -> SecureBytes {
        try JOSEError.wrapping(.decryptionFailed, "\(algorithm.rawValue) key unwrap (wrong key, or altered data)") {
            try AESKeyWrap.unwrap(encryptedKey, kek: kek)
        }
    }

    /// The bytes of the base64url header member `name`.
    ///
    /// - Throws: ``JOSEError`` `.malformed` when it is missing or not base64url.
    static func headerBytes(_ header: JOSEHeader, _ name: String) throws(JOSEError) -> [UInt8] {
        guard let value = header[name] else {
            throw JOSEError.malformed("the JOSE header", "member \"\(name)\" is missing")
        }
        guard case .string(let text) = value else {
            throw JOSEError.malformed("header member \"\(name)\"", "is \(value.kind), not a string")
        }
        return try Base64URL.decode(Array(text.utf8), what: "header member \"\(name)\"")
    }

    /// The AES-GCM cipher of a key encryption key of `count` bytes.
    static func gcmCipher(_ count: Int) -> SymmetricCipher {
        switch count {
        case 24: .aes192GCM
        case 32: .aes256GCM
        default: .aes128GCM
        }
    }

    private static func requireCEK(_ cek: SecureBytes?, _ algorithm: KeyManagementAlgorithm) throws(JOSEError) -> SecureBytes {
        guard let cek else { throw onlyRecipient(algorithm) }
        return cek
    }

    /// The error for `dir` or `ECDH-ES` among several recipients: they decide the CEK, so they
    /// cannot share one.
    static func onlyRecipient(_ algorithm: KeyManagementAlgorithm) -> JOSEError {
        JOSEError(.algorithmNotAllowed, "\(algorithm.rawValue) decides the content encryption key, so it must be the only recipient (RFC 7516 §7.2.1)")
    }
}
