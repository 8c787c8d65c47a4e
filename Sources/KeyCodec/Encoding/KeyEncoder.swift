import ASN1Kit
import CofferErrors
import CryptoOpenSSL
import AsymmetricKeys
import X509Kit

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
    /// format has a DER form (pkcs1, pkcs1-public, pkcs8, sec1, spki). Deterministic formats come
    /// out byte-identical to `openssl` / `ssh-keygen`.
    ///
    /// - Parameters:
    ///   - comment: For OpenSSH and RFC 4716 output; ignored otherwise.
    ///   - options: `authorized_keys` options written before an `openssh-public` line; ignored otherwise.
    ///   - attributes: `kid`, `use`, `alg` and `key_ops` for JWK output; ignored otherwise.
    ///   - ppkVersion: The PuTTY key file version for `ppk` output (3 by default; 2 for PuTTY before 0.75).
    ///   - encryption: Encrypts a private key: pkcs8 as EncryptedPrivateKeyInfo (PBES2, PBKDF2-HMAC-SHA256,
    ///     2048 iterations), pkcs1 and sec1 as legacy `Proc-Type`/`DEK-Info` PEM, openssh with bcrypt-pbkdf,
    ///     ppk with AES-256-CBC and Argon2id (v3) or PuTTY's SHA-1 derivation (v2), pkcs12 (which needs it,
    ///     without a cipher) through ``PKCS12File/encode(key:certificates:passphrase:friendlyName:protection:iterations:)``
    ///     with ``PKCS12File/Protection/modern``; call that directly for certificates or legacy protection.
    /// - Throws: ``KeyError`` `.cannotConvert` for a public key to a private format, or a key the
    ///   format cannot hold (PKCS#1 holds RSA, SEC 1 holds EC, SSH and PPK hold no X25519/X448 and OpenSSH
    ///   private keys no Ed448); `.invalidArgument` for DER of a text format, encryption of a
    ///   public format, DER with legacy PEM encryption, or an unknown cipher.
    public static func encode(_ key: AsymmetricKey, as format: KeyOutputFormat, der: Bool, comment: String?, encryption: Encryption?,
                              options: String? = nil, attributes: KeyAttributes = KeyAttributes(),
                              ppkVersion: PPKPrivateKey.Version = .v3) throws -> [UInt8] {
        if format.isPrivate && !key.isPrivate {
            throw KeyError(.cannotConvert, "a public key cannot be written as \(format.rawValue), which holds a private key")
        }
        if der && [.openssh, .opensshPublic, .rfc4716, .jwk, .jwkPublic, .ppk].contains(format) {
            throw KeyError(.invalidArgument, "\(format.rawValue) has no DER form")
        }
        if encryption != nil && !format.isPrivate {
            throw KeyError(.invalidArgument, "\(format.rawValue) holds a public key, which is not encrypted")
        }
        if encryption != nil && format == .jwk {
            throw KeyError(.invalidArgument, "a JWK is plain JSON; Coffer does not write encrypted (JWE) keys")
        }
        if format.isPrivate, let privateKey = key.privateKey {
            if case .dsa = privateKey { throw DSAPrivateKey.readOnly("write private keys") }
            if case .securityKey = privateKey { throw SecurityKeyPrivateKey.needsAuthenticator("write private key files") }
        }
        try requireHoldable(key.algorithm, in: format)
        let publicKey = try key.publicKey()
        try RSAPSSRestriction.requireHoldable(publicKey, in: format)
        switch format {
        case .pkcs1Public:
            guard let rsa = publicKey.rsa else { throw cannotHold(key.algorithm, format) }
            return output(rsa.pkcs1DER, label: "RSA PUBLIC KEY", der: der)
        case .spki:
            return output(SubjectPublicKeyInfo.encode(publicKey), label: "PUBLIC KEY", der: der)
        case .opensshPublic:
            return Array(try OpenSSHPublicKey.encode(publicKey, comment: comment, options: options).utf8)
        case .rfc4716:
            return Array(try RFC4716PublicKey.encode(publicKey, comment: comment).utf8)
        case .jwkPublic:
            return try JSONWebKey(key: .publicKey(publicKey), attributes: attributes).encoded(includePrivate: false)
        case .jwk:
            return try JSONWebKey(key: key, attributes: attributes).encoded(includePrivate: true)
        case .pkcs12:
            guard let encryption else {
                throw KeyError(.invalidArgument, "a PKCS#12 file is always protected by a passphrase; give one to encrypt with")
            }
            // PKCS12File.encode is the one PKCS#12 writer; its protection is a typed choice, not a cipher.
            guard encryption.cipherIsDefault else {
                throw KeyError(.invalidArgument, "a PKCS#12 file's protection is not a cipher; write it with PKCS12File.encode and a PKCS12File.Protection")
            }
            return try PKCS12File.encode(key: key.privateKey, certificates: [], passphrase: encryption.passphrase,
                                         friendlyName: attributes.friendlyName, protection: .modern)
        case .pkcs1, .pkcs8, .sec1, .openssh, .ppk:
            // Checked above: private formats only get here with a private key.
            guard let privateKey = key.privateKey else {
                throw KeyError(.cannotConvert, "a public key cannot be written as \(format.rawValue)")
            }
            return try encodePrivate(privateKey, as: format, der: der, comment: comment, encryption: encryption, ppkVersion: ppkVersion)
        }
    }

    /// Throws `.cannotConvert` when `format` cannot hold keys of `algorithm`.
    package static func requireHoldable(_ algorithm: KeyAlgorithmName, in format: KeyOutputFormat) throws {
        let holds: Bool = switch format {
        case .pkcs1, .pkcs1Public: algorithm == .rsa
        case .sec1: algorithm == .ec
        case .opensshPublic, .rfc4716: algorithm != .x25519 && algorithm != .x448
        case .openssh: [.rsa, .ec, .ed25519].contains(algorithm)
        case .ppk: [.rsa, .ec, .ed25519, .ed448].contains(algorithm)
        case .spki: algorithm != .skEd25519 && algorithm != .skECDSA
        case .jwk, .jwkPublic, .pkcs8, .pkcs12: ![.dsa, .skEd25519, .skECDSA].contains(algorithm)
        }
        if !holds { throw cannotHold(algorithm, format) }
    }

    private static func cannotHold(_ algorithm: KeyAlgorithmName, _ format: KeyOutputFormat) -> KeyError {
        let holds: String = switch format {
        case .pkcs1, .pkcs1Public: "RSA keys only"
        case .sec1: "EC keys only"
        case .opensshPublic, .rfc4716: "SSH key types (RSA, EC, Ed25519, Ed448, DSA, security keys), not key-agreement keys"
        case .openssh: "RSA, EC and Ed25519 keys"
        case .ppk: "RSA, EC (P-256, P-384, P-521), Ed25519 and Ed448 keys"
        case .spki: "every key but FIDO security keys, which only SSH formats hold"
        case .jwk, .jwkPublic: "RSA, EC and OKP keys (no JWK key type holds DSA or FIDO security keys)"
        case .pkcs8, .pkcs12: "every private key Coffer writes"
        }
        var error = KeyError(.cannotConvert, "\(format.rawValue) cannot hold an \(algorithm.displayName) key: it holds \(holds)\(algorithm == .skEd25519 || algorithm == .skECDSA ? "; use openssh-public or rfc4716" : "; pkcs8 and spki hold every other algorithm")")
        error.algorithm = algorithm.rawValue
        return error
    }

    private static func encodePrivate(_ key: PrivateKey, as format: KeyOutputFormat, der: Bool, comment: String?, encryption: Encryption?,
                                      ppkVersion: PPKPrivateKey.Version) throws -> [UInt8] {
        switch (format, key) {
        case (.pkcs1, .rsa(let rsa)):
            return try legacyOrPlain(rsa.pkcs1DER, label: "RSA PRIVATE KEY", der: der, encryption: encryption)
        case (.sec1, .ec(let ec)):
            return try legacyOrPlain(SEC1PrivateKey.encode(ec), label: SEC1PrivateKey.label, der: der, encryption: encryption)
        case (.pkcs8, _):
            guard let encryption else { return output(try PKCS8PrivateKey.encode(key), label: "PRIVATE KEY", der: der) }
            let cipher = try openSSLCipher(encryption.cipher, allowingDES: false)
            let encrypted = try EncryptedPrivateKeyInfo.encode(key, passphrase: encryption.passphrase, cipher: cipher)
            return der ? encrypted : Array(PEMBlock(label: "ENCRYPTED PRIVATE KEY", bytes: encrypted).pemText.utf8)
        case (.ppk, _):
            if let encryption, !encryption.cipherIsDefault, !["aes256-cbc", "aes-256-cbc"].contains(encryption.cipher.lowercased()) {
                throw KeyError(.invalidArgument, "PPK files are encrypted with aes256-cbc only, not '\(encryption.cipher.prefix(40))'")
            }
            let text = try PPKPrivateKey.encode(key, comment: comment, passphrase: encryption?.passphrase, version: ppkVersion)
            return Array(text.utf8)
        case (.openssh, _):
            let cipher = encryption.map { $0.cipherIsDefault ? "aes256-ctr" : opensshCipherName($0.cipher) } ?? "aes256-ctr"
            let text = try OpenSSHPrivateKey.encode(key, comment: comment, passphrase: encryption?.passphrase, cipher: cipher)
            return Array(text.utf8)
        default:
            throw cannotHold(key.algorithm, format)
        }
    }

    /// A traditional (PKCS#1 or SEC 1) private key: plain PEM or DER, or legacy encrypted PEM.
    private static func legacyOrPlain(_ der: SecureBytes, label: String, der asDER: Bool, encryption: Encryption?) throws -> [UInt8] {
        guard let encryption else { return output(der, label: label, der: asDER) }
        guard !asDER else {
            throw KeyError(.invalidArgument, "legacy PEM encryption has no DER form; write an encrypted pkcs8 key for DER")
        }
        let cipher = try openSSLCipher(encryption.cipher, allowingDES: true)
        let block = try LegacyPEMEncryption.encrypt(der, label: label, passphrase: encryption.passphrase, cipher: cipher)
        return Array(block.pemText.utf8)
    }

    /// DER as is, or PEM text with `label`.
    private static func output(_ der: [UInt8], label: String, der asDER: Bool) -> [UInt8] {
        asDER ? der : Array(PEMBlock(label: label, bytes: der).pemText.utf8)
    }

    /// DER from wiped storage as is, or PEM text with `label`.
    private static func output(_ der: SecureBytes, label: String, der asDER: Bool) -> [UInt8] {
        // The DER is the output the caller asked for; PEM needs it as an array only for a moment.
        var bytes = der.withUnsafeBytes { Array($0) }
        if asDER { return bytes }
        defer { SecureMemory.zero(&bytes) }
        var block = PEMBlock(label: label, bytes: bytes)
        defer { SecureMemory.zero(&block.bytes) }
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
            throw KeyError(.invalidArgument, "cipher '\(name.prefix(40))' is not supported here (\(allowed) are)")
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
