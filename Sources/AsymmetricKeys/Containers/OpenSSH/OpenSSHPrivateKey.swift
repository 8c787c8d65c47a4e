import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// OpenSSH private keys (`openssh-key-v1`, the format of `ssh-keygen` since OpenSSH 7.8), read and
/// written, unencrypted or encrypted with bcrypt-pbkdf and AES.
///
/// ```
/// "openssh-key-v1" 0x00
/// string   ciphername          none | aes{128,192,256}-{ctr,cbc} | aes{128,256}-gcm@openssh.com
/// string   kdfname             none | bcrypt
/// string   kdfoptions          empty, or: string salt, uint32 rounds
/// uint32   number of keys      always 1
/// string   public key blob     string "ssh-rsa", mpint e, mpint n
/// string   private section     encrypted as a whole, then the GCM tag (16 bytes) for GCM
///
/// private section:
///     uint32 checkint, uint32 checkint      equal random numbers: a wrong passphrase shows here
///     string "ssh-rsa", mpint n, mpint e, mpint d, mpint iqmp, mpint p, mpint q
///     string comment
///     byte 1, 2, 3, …                       padding to the cipher's block size (8 for none)
/// ```
/// (PROTOCOL.key in OpenSSH's sources.) The file is that blob in base64 at 70 columns between
/// `-----BEGIN OPENSSH PRIVATE KEY-----` and `-----END OPENSSH PRIVATE KEY-----`.
///
/// OpenSSH does not store d mod (p−1) and d mod (q−1); decoding computes them.
public enum OpenSSHPrivateKey {
    /// The PEM-style label of the armor.
    public static let label = "OPENSSH PRIVATE KEY"
    /// The magic at the start of the blob, including its NUL.
    public static let magic: [UInt8] = Array("openssh-key-v1".utf8) + [0]
    /// The base64 line width ssh-keygen writes.
    static let lineWidth = 70

    /// Decodes an OpenSSH private key of any type Coffer handles (`ssh-rsa`, `ssh-ed25519`,
    /// `ecdsa-sha2-nistp256/384/521`).
    ///
    /// - Parameters:
    ///   - bytes: the whole file (the `-----BEGIN OPENSSH PRIVATE KEY-----` armor, text around it
    ///     allowed) or the raw `openssh-key-v1` blob.
    ///   - passphrase: asked only when the key is encrypted.
    /// - Returns: the key, its comment (`nil` when empty) and the encryption (`nil` when none).
    /// - Throws: ``KeyError``: `.unsupportedAlgorithm` naming a key type Coffer does not handle;
    ///   `.unsupportedEncryption` for other ciphers or KDFs; `.passphraseRequired` when encrypted
    ///   and no passphrase is given; `.wrongPassphrase` when the check numbers or the GCM tag do not
    ///   match after decryption; `.malformed` with the offset in the blob (or, for the private
    ///   section, in the decrypted section) for everything else.
    public static func decode(_ bytes: [UInt8], passphrase: PassphraseProvider?) throws -> (key: PrivateKey, comment: String?, encryption: KeyEncryptionInfo?) {
        if bytes.starts(with: magic) {
            return try decodeBlob(bytes[...], passphrase: passphrase)
        }
        let blob = try unarmor(bytes)
        return try decodeBlob(blob[...], passphrase: passphrase)
    }

    /// Reads what an OpenSSH private key shows without its passphrase: the public key, how the
    /// private part is protected, and bcrypt-pbkdf's round count — so a caller can show a
    /// fingerprint, or refuse a file whose round count would take too long, before asking for a
    /// passphrase. Nothing is decrypted.
    ///
    /// - Parameter bytes: as for ``decode(_:passphrase:)``.
    /// - Returns: the public key, the encryption (`nil` when none; the cipher as the file names it,
    ///   even one ``decode(_:passphrase:)`` does not support) and the rounds (0 when unencrypted or
    ///   not bcrypt).
    /// - Throws: ``KeyError`` `.unsupportedAlgorithm` for a key type Coffer does not handle, `.malformed` with the
    ///   offset for a damaged header; the private section is not examined.
    public static func publicKey(_ bytes: [UInt8]) throws -> (key: PublicKey, encryption: KeyEncryptionInfo?, rounds: Int) {
        let blob = bytes.starts(with: magic) ? bytes : try unarmor(bytes)
        var reader = SSHWireReader(blob[...], context: "OpenSSH private key")
        let header = try parseHeader(&reader)
        if header.cipherName.elementsEqual("none".utf8) {
            return (header.publicKey, nil, 0)
        }
        let cipher = SSHWireReader.printable(header.cipherName)
        guard header.kdf.elementsEqual("bcrypt".utf8) else {
            return (header.publicKey, KeyEncryptionInfo(cipher: cipher, kdf: SSHWireReader.printable(header.kdf)), 0)
        }
        let (_, rounds) = try parseBcryptOptions(header)
        return (header.publicKey, KeyEncryptionInfo(cipher: cipher, kdf: kdfName), rounds)
    }

    /// Encodes `key` (RSA, EC on P-256/384/521, Ed25519) as an OpenSSH private key file, as
    /// `ssh-keygen` writes it.
    ///
    /// - Parameters:
    ///   - comment: stored inside the private section (`nil` stores an empty one).
    ///   - passphrase: `nil` or empty writes the key unencrypted (cipher and KDF `none`), as
    ///     ssh-keygen does for an empty passphrase.
    ///   - cipher: an OpenSSH cipher name: `aes256-ctr` (the default), `aes128-ctr`, `aes192-ctr`,
    ///     `aes128-cbc`, `aes192-cbc`, `aes256-cbc`, `aes128-gcm@openssh.com`,
    ///     `aes256-gcm@openssh.com`.
    ///   - rounds: bcrypt-pbkdf rounds (ssh-keygen's default is 16).
    /// - Returns: the armored text, base64 at 70 columns, ending in a newline.
    /// - Throws: ``KeyError`` `.cannotConvert` for a multi-prime key (OpenSSH stores two primes)
    ///   and for X25519, X448 and Ed448 keys, `.invalidArgument` for an unknown cipher or a round count outside 1…``KDFLimits/maximumRounds`` of ``KDFLimits/current``.
    public static func encode(_ key: PrivateKey, comment: String?, passphrase: SecureBytes?, cipher: String = "aes256-ctr", rounds: Int = 16) throws -> String {
        let blob = try encodeBlob(key, comment: comment, passphrase: passphrase, cipher: cipher, rounds: rounds)
        let text = "-----BEGIN \(label)-----\n" + Base64.encode(blob, lineWidth: lineWidth)
        return text + "-----END \(label)-----\n"
    }

    private static let beginLine = Array("-----BEGIN \(label)-----".utf8)
    private static let endLine = Array("-----END \(label)-----".utf8)

    /// The blob inside the armor. Text before the BEGIN line and after the END line is allowed; the
    /// body may only hold base64 and whitespace (the format has no PEM headers).
    static func unarmor(_ bytes: [UInt8]) throws -> [UInt8] {
        guard let begin = ByteSearch.firstIndex(of: beginLine, in: bytes[...]) else {
            throw KeyError(.unrecognizedFormat, "no -----BEGIN \(label)----- line found")
        }
        let bodyStart = begin + beginLine.count
        guard let end = ByteSearch.firstIndex(of: endLine, in: bytes[bodyStart...]) else {
            throw KeyError(.malformed, "OpenSSH private key at offset \(begin) has no -----END \(label)----- line", offset: begin)
        }
        if let second = ByteSearch.firstIndex(of: beginLine, in: bytes[(end + endLine.count)...]) {
            throw KeyError(.malformed, "file holds a second OpenSSH private key at offset \(second); expected one", offset: second)
        }
        return try SSHBase64.decode(bytes[bodyStart..<end], baseOffset: bodyStart, what: "OpenSSH private key at offset \(begin)")
    }
}
