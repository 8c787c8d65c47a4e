/// How an encrypted container was protected, as read from it (no passphrase needed).
public struct KeyEncryptionInfo: Sendable, Hashable {
    /// The cipher, in OpenSSL/OpenSSH spelling (`aes-256-cbc`, `aes256-ctr`, `des-ede3-cbc`, …).
    public var cipher: String
    /// The key derivation (`pbkdf2-hmac-sha256`, `scrypt`, `bcrypt-pbkdf`, `evp-bytestokey-md5`, `pbes1-md5`,
    /// `argon2id`/`argon2i`/`argon2d` and `ppk-v2-sha1` for PuTTY files, …).
    public var kdf: String?
    /// Whether the passphrase is empty (a PKCS#12 file that opens without one).
    public var emptyPassword = false

    public init(cipher: String, kdf: String?, emptyPassword: Bool = false) {
        self.cipher = cipher
        self.kdf = kdf
        self.emptyPassword = emptyPassword
    }
}
