import CofferErrors
import CryptoOpenSSL

/// PuTTY private key files (`.ppk`, versions 2 and 3), read and written, unencrypted or
/// encrypted with AES-256-CBC (PuTTY manual, appendix C).
///
/// ```
/// public blob  = the SSH public key blob (RFC 4253 §6.6, RFC 5656 §3.1, RFC 8709 §4)
/// private blob = ssh-rsa:             mpint d, mpint p, mpint q, mpint iqmp
///              | ecdsa-sha2-nistp*:   mpint d
///              | ssh-ed25519/ed448:   string private key (32 / 57 bytes)
///              then, when encrypted, padding to the 16-byte AES block
/// MAC          = HMAC(MAC key, string algorithm ‖ string encryption ‖ string comment
///                              ‖ string public blob ‖ string private blob with its padding)
/// ```
///
/// ``PPKFile`` describes the text around the blobs and ``PPKKeyDerivation`` how the passphrase
/// gives the cipher and MAC keys. The MAC is checked before the private blob is read; the private
/// key is then checked against the public key stored with it.
public enum PPKPrivateKey {
    /// The file format versions.
    public enum Version: Int, Sendable, Hashable, CaseIterable {
        /// PuTTY 0.52 to 0.74: SHA-1 key derivation, HMAC-SHA-1.
        case v2 = 2
        /// PuTTY 0.75 on: Argon2 key derivation, HMAC-SHA-256.
        case v3 = 3
    }

    /// Argon2 settings for writing encrypted version 3 files.
    public struct Argon2Parameters: Sendable, Hashable {
        /// The flavour (`Key-Derivation:`).
        public var variant: Argon2.Variant
        /// Memory in KiB.
        public var memoryKiB: UInt32
        /// Passes over memory.
        public var passes: UInt32
        /// Lanes.
        public var parallelism: UInt32

        /// puttygen's memory (8192 KiB) and parallelism (1) with Argon2id, and a fixed 16 passes
        /// where puttygen calibrates the passes to take about 100 ms: what a file costs to open
        /// then does not depend on the machine that wrote it.
        public static let `default` = Argon2Parameters(variant: .argon2id, memoryKiB: 8192, passes: 16, parallelism: 1)

        public init(variant: Argon2.Variant, memoryKiB: UInt32, passes: UInt32, parallelism: UInt32) {
            self.variant = variant
            self.memoryKiB = memoryKiB
            self.passes = passes
            self.parallelism = parallelism
        }
    }

    /// The base64 line width PuTTY writes.
    static let lineWidth = 64

    /// The salt length puttygen writes.
    static let saltLength = 16

    /// Whether `bytes` starts like a PPK file (`PuTTY-User-Key-File-`).
    public static func isPPK(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: PPKFile.magic)
    }

    /// Decodes a PPK file.
    ///
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - passphrase: Asked only when the file is encrypted.
    /// - Returns: The key, its comment (`nil` when empty) and the encryption (`nil` when none;
    ///   the KDF is `argon2id`, `argon2i`, `argon2d` or `ppk-v2-sha1`).
    /// - Throws: ``KeyError``: `.unrecognizedFormat` when the file does not start with
    ///   `PuTTY-User-Key-File-`; `.unsupportedAlgorithm` for key types Coffer does not handle
    ///   (`ssh-dss`, …); `.unsupportedEncryption` for encryption or key derivation other than
    ///   none/aes256-cbc and Argon2; `.costTooHigh` when Argon2's memory or passes exceed
    ///   ``KDFLimits/current``; `.passphraseRequired`; `.wrongPassphrase` when the MAC of an
    ///   encrypted file does not match; `.malformed` naming the line (and offset) for everything
    ///   else, including the MAC of an unencrypted file and a private key that does not match its
    ///   public key.
    public static func decode(_ bytes: [UInt8], passphrase: PassphraseProvider?) throws -> (key: PrivateKey, comment: String?, encryption: KeyEncryptionInfo?) {
        let file = try PPKFile.parse(bytes)
        let publicKey = try decodePublicBlob(file)
        let comment = file.comment.isEmpty ? nil : String(decoding: file.comment, as: UTF8.self)
        let encryption = encryptionInfo(file)
        let keys: PPKKeyDerivation
        var plaintext: [UInt8]
        if let derivation = file.keyDerivation {
            guard file.privateBlob.count % 16 == 0, !file.privateBlob.isEmpty else {
                throw KeyError(.malformed, "PPK line \(file.privateLine): the encrypted private key has \(file.privateBlob.count) bytes, not a positive multiple of the 16-byte AES block")
            }
            guard let passphrase, let secret = try passphrase("PuTTY private key") else {
                throw KeyError(.passphraseRequired, "the PuTTY private key is encrypted (aes256-cbc); a passphrase is needed")
            }
            keys = try PPKKeyDerivation.derive(derivation, passphrase: secret)
            plaintext = try KeyError.fromOpenSSL("decrypting the PPK private key") {
                try Cipher.decrypt(.aes256CBC, key: keys.cipherKey, iv: keys.iv, file.privateBlob, padding: false)
            }
        } else {
            keys = PPKKeyDerivation.unencrypted(version: file.version)
            plaintext = file.privateBlob
        }
        defer { SecureMemory.zero(&plaintext) }

        var expected = try mac(file, privateBlob: plaintext, key: keys.macKey)
        defer { SecureMemory.zero(&expected) }
        guard constantTimeEquals(expected, file.mac) else {
            if file.isEncrypted {
                throw KeyError(.wrongPassphrase, "PuTTY private key: the Private-MAC (line \(file.macLine)) does not match: wrong passphrase, or the file is damaged")
            }
            throw KeyError(.malformed, "PPK line \(file.macLine): the Private-MAC (HMAC-\(file.version == 2 ? "SHA-1" : "SHA-256")) does not match the file's contents; the file is damaged")
        }
        let key = try PPKPrivateBlob.decode(plaintext[...], publicKey: publicKey, encrypted: file.isEncrypted, line: file.privateLine)
        return (key, comment, encryption)
    }

    /// Reads what a PPK file shows without its passphrase: the public key, the comment and how
    /// the private key is protected. The MAC is not checked (for an encrypted file it needs the
    /// passphrase).
    ///
    /// - Throws: as ``decode(_:passphrase:)`` for the text and the public key.
    public static func publicKey(_ bytes: [UInt8]) throws -> (key: PublicKey, comment: String?, encryption: KeyEncryptionInfo?) {
        let file = try PPKFile.parse(bytes)
        let key = try decodePublicBlob(file)
        return (key, file.comment.isEmpty ? nil : String(decoding: file.comment, as: UTF8.self), encryptionInfo(file))
    }

    /// How the file's private key is protected, as ``KeyEncryptionInfo``.
    static func encryptionInfo(_ file: PPKFile) -> KeyEncryptionInfo? {
        switch file.keyDerivation {
        case nil: nil
        case .sha1: KeyEncryptionInfo(cipher: "aes256-cbc", kdf: "ppk-v2-sha1")
        case .argon2(let variant, _, _, _, _): KeyEncryptionInfo(cipher: "aes256-cbc", kdf: variant.argon2.rawValue)
        }
    }

    /// The public key blob, whose key type must be the one the first line names.
    static func decodePublicBlob(_ file: PPKFile) throws -> PublicKey {
        _ = try OpenSSHKeyType.require(file.algorithm, in: "PPK line 1", offset: 0)
        let context = "PPK public key (Public-Lines at line \(file.publicLine))"
        var reader = SSHWireReader(file.publicBlob[...], context: context)
        let type = try reader.readString()
        guard type.elementsEqual(file.algorithm) else {
            throw KeyError(.malformed, "\(context) is a '\(SSHWireReader.printable(type))' key but line 1 says '\(SSHWireReader.printable(file.algorithm))'",
                           offset: file.publicOffset)
        }
        do {
            return try OpenSSHPublicKey.decodeBlob(file.publicBlob[...], context: context)
        } catch var error as KeyError where error.code == .malformed {
            error.offset = file.publicOffset
            throw error
        }
    }

    /// The MAC over the file's fields and the plaintext private blob.
    static func mac(_ file: PPKFile, privateBlob: [UInt8], key: SecureBytes) throws -> [UInt8] {
        try mac(version: file.version, algorithm: file.algorithm, encryption: file.encryption, comment: file.comment,
                publicBlob: file.publicBlob, privateBlob: privateBlob, key: key)
    }

    static func mac(version: Int, algorithm: [UInt8], encryption: [UInt8], comment: [UInt8], publicBlob: [UInt8],
                    privateBlob: [UInt8], key: SecureBytes) throws -> [UInt8] {
        // Built in a function of its own so that the returned array is the only reference to the
        // buffer the defer wipes.
        func macData() -> [UInt8] {
            var writer = SSHWireWriter(capacity: 64 + algorithm.count + comment.count + publicBlob.count + privateBlob.count)
            writer.writeString(algorithm)
            writer.writeString(encryption)
            writer.writeString(comment)
            writer.writeString(publicBlob)
            writer.writeString(privateBlob)
            return writer.bytes
        }
        var data = macData()
        defer { SecureMemory.zero(&data) }
        return try KeyError.fromOpenSSL("the PPK MAC") {
            try key.withUnsafeBytes { keyBytes in
                try data.withUnsafeBytes { try HMAC.authenticationCode(version == 2 ? .sha1 : .sha256, key: keyBytes, data: $0) }
            }
        }
    }
}
