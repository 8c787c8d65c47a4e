import ASN1Kit
import CryptoOpenSSL

/// Writes keys in any ``KeyOutputFormat``.
public enum KeyEncoder {
    /// How to encrypt a private key on output.
    public struct Encryption: Sendable {
        /// The new passphrase.
        public var passphrase: SecureBytes
        /// The cipher in OpenSSL spelling (`aes-256-cbc`, the default; `aes-128-cbc`, `aes-192-cbc`,
        /// `des-ede3-cbc`, and `des-cbc` for legacy PEM only) or, for OpenSSH keys, OpenSSH spelling
        /// (`aes256-ctr`, the OpenSSH default; `aes128-ctr`, `aes192-ctr`, `aes128-cbc`,
        /// `aes256-cbc`, `aes256-gcm@openssh.com`).
        public var cipher: String
        /// Whether the caller left the cipher to the format's default.
        let cipherIsDefault: Bool

        /// Creates encryption settings. Without `cipher`, PKCS#8 and legacy PEM use `aes-256-cbc`
        /// and OpenSSH uses `aes256-ctr`.
        public init(passphrase: SecureBytes, cipher: String? = nil) {
            self.passphrase = passphrase
            self.cipher = cipher ?? "aes-256-cbc"
            self.cipherIsDefault = cipher == nil
        }
    }

    /// Writes `key` in `format`: PEM (or OpenSSH/RFC 4716 text) by default, DER when `der` and the
    /// format has a DER form (pkcs1, pkcs1-public, pkcs8, spki). Deterministic formats come out
    /// byte-identical to `openssl` / `ssh-keygen`.
    ///
    /// - Parameters:
    ///   - comment: For OpenSSH and RFC 4716 output; ignored otherwise.
    ///   - encryption: Encrypts a private key: pkcs8 as EncryptedPrivateKeyInfo (PBES2, PBKDF2-HMAC-SHA256,
    ///     2048 iterations), pkcs1 as legacy `Proc-Type`/`DEK-Info` PEM, openssh with bcrypt-pbkdf.
    /// - Throws: ``RSAKeyError`` `.cannotConvert` for a public key to a private format;
    ///   `.invalidArgument` for DER of a text format, encryption of a public format, DER with legacy
    ///   PEM encryption, or an unknown cipher.
    public static func encode(_ key: RSAKey, as format: KeyOutputFormat, der: Bool, comment: String?, encryption: Encryption?) throws -> [UInt8] {
        if format.isPrivate && !key.isPrivate {
            throw RSAKeyError(.cannotConvert, "a public key cannot be written as \(format.rawValue), which holds a private key")
        }
        if der && [.openssh, .opensshPublic, .rfc4716].contains(format) {
            throw RSAKeyError(.invalidArgument, "\(format.rawValue) has no DER form")
        }
        if encryption != nil && !format.isPrivate {
            throw RSAKeyError(.invalidArgument, "\(format.rawValue) holds a public key, which is not encrypted")
        }
        let publicKey = key.publicKey
        switch format {
        case .pkcs1Public:
            return output(publicKey.pkcs1DER, label: "RSA PUBLIC KEY", der: der)
        case .spki:
            return output(SubjectPublicKeyInfo.encode(publicKey), label: "PUBLIC KEY", der: der)
        case .opensshPublic:
            return Array(OpenSSHPublicKey.encode(publicKey, comment: comment).utf8)
        case .rfc4716:
            return Array(RFC4716PublicKey.encode(publicKey, comment: comment).utf8)
        case .pkcs1, .pkcs8, .openssh:
            // Checked above: private formats only get here with a private key.
            guard let privateKey = key.privateKey else {
                throw RSAKeyError(.cannotConvert, "a public key cannot be written as \(format.rawValue)")
            }
            return try encodePrivate(privateKey, as: format, der: der, comment: comment, encryption: encryption)
        }
    }

    private static func encodePrivate(_ key: RSAPrivateKey, as format: KeyOutputFormat, der: Bool, comment: String?, encryption: Encryption?) throws -> [UInt8] {
        switch format {
        case .pkcs1:
            guard let encryption else { return output(key.pkcs1DER, label: "RSA PRIVATE KEY", der: der) }
            guard !der else {
                throw RSAKeyError(.invalidArgument, "legacy PEM encryption has no DER form; write an encrypted pkcs8 key for DER")
            }
            let cipher = try openSSLCipher(encryption.cipher, allowingDES: true)
            let block = try LegacyPEMEncryption.encrypt(key.pkcs1DER, label: "RSA PRIVATE KEY", passphrase: encryption.passphrase, cipher: cipher)
            return Array(block.pemText.utf8)
        case .pkcs8:
            guard let encryption else { return output(key.pkcs8DER, label: "PRIVATE KEY", der: der) }
            let cipher = try openSSLCipher(encryption.cipher, allowingDES: false)
            let encrypted = try EncryptedPrivateKeyInfo.encode(key, passphrase: encryption.passphrase, cipher: cipher)
            return der ? encrypted : Array(PEMBlock(label: "ENCRYPTED PRIVATE KEY", bytes: encrypted).pemText.utf8)
        default:
            let cipher = encryption.map { $0.cipherIsDefault ? "aes256-ctr" : opensshCipherName($0.cipher) } ?? "aes256-ctr"
            let text = try OpenSSHPrivateKey.encode(key, comment: comment, passphrase: encryption?.passphrase, cipher: cipher)
            return Array(text.utf8)
        }
    }

    /// DER as is, or PEM text with `label`.
    private static func output(_ der: [UInt8], label: String, der asDER: Bool) -> [UInt8] {
        asDER ? der : Array(PEMBlock(label: label, bytes: der).pemText.utf8)
    }

    /// DER from wiped storage as is, or PEM text with `label`.
    private static func output(_ der: SecureBytes, label: String, der asDER: Bool) -> [UInt8] {
        var bytes = der.bytes
        if asDER { return bytes }
        defer { Wipe.array(&bytes) }
        var block = PEMBlock(label: label, bytes: bytes)
        defer { Wipe.array(&block.bytes) }
        return Array(block.pemText.utf8)
    }

    /// The cipher for an OpenSSL-style name (case-insensitive; `aes256`, `des3` aliases accepted).
    static func openSSLCipher(_ name: String, allowingDES: Bool) throws -> SymmetricCipher {
        let cipher: SymmetricCipher? = switch name.lowercased() {
        case "aes-128-cbc", "aes128": .aes128CBC
        case "aes-192-cbc", "aes192": .aes192CBC
        case "aes-256-cbc", "aes256": .aes256CBC
        case "des-ede3-cbc", "des3": .desEDE3CBC
        case "des-cbc", "des": allowingDES ? .desCBC : nil
        default: nil
        }
        guard let cipher else {
            let allowed = "aes-128-cbc, aes-192-cbc, aes-256-cbc, des-ede3-cbc" + (allowingDES ? ", des-cbc" : "")
            throw RSAKeyError(.invalidArgument, "cipher '\(name.prefix(40))' is not supported here (\(allowed) are)")
        }
        return cipher
    }

    /// OpenSSH's spelling of a cipher given in OpenSSL's (`aes-256-ctr` → `aes256-ctr`); OpenSSH
    /// names pass through.
    static func opensshCipherName(_ name: String) -> String {
        let lower = name.lowercased()
        if lower == "aes-256-gcm" { return "aes256-gcm@openssh.com" }
        for bits in ["128", "192", "256"] where lower.hasPrefix("aes-\(bits)-") {
            return "aes\(bits)-" + lower.dropFirst(8)
        }
        return lower
    }
}
