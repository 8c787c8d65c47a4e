/// The container a key was read from, named as `keytool inspect --json` prints it.
public enum KeyFormat: String, Sendable, Hashable, CaseIterable {
    case pkcs1Private = "pkcs1-private"
    case pkcs1Public = "pkcs1-public"
    case spki = "spki"
    case pkcs8 = "pkcs8"
    case pkcs8Encrypted = "pkcs8-encrypted"
    /// Legacy OpenSSL PEM encryption (`Proc-Type: 4,ENCRYPTED` + `DEK-Info`).
    case pkcs1PrivateEncrypted = "pkcs1-private-encrypted"
    /// SEC 1 `ECPrivateKey` (`EC PRIVATE KEY`).
    case sec1Private = "sec1-private"
    /// SEC 1 with legacy OpenSSL PEM encryption.
    case sec1PrivateEncrypted = "sec1-private-encrypted"
    case opensshPrivate = "openssh-private"
    case opensshPublic = "openssh-public"
    case rfc4716Public = "rfc4716-public"
    case x509Certificate = "x509-certificate"
    /// A JSON Web Key (RFC 7517).
    case jwk = "jwk"
    /// One key of a JWK Set (`{"keys": [...]}`).
    case jwkSet = "jwk-set"
    /// A key or certificate of a PKCS#12 file (`.p12`, `.pfx`).
    case pkcs12 = "pkcs12"
    /// A PKCS#10 certification request (`CERTIFICATE REQUEST`); the key is the requested one.
    case pkcs10Request = "pkcs10-csr"
    /// PuTTY private key file (`PuTTY-User-Key-File-2:` / `-3:`).
    case ppk = "ppk"
}

/// How the container was encoded.
public enum KeyEncoding: String, Sendable, Hashable, CaseIterable {
    case pem
    case der
    /// One-line or RFC 4716 text (OpenSSH public keys), the OpenSSH private key PEM-like armor, or
    /// a PuTTY key file.
    case text
    /// JSON (JWK).
    case json
}

/// The formats a key can be written in, named as `keytool convert --to` takes them.
public enum KeyOutputFormat: String, Sendable, Hashable, CaseIterable {
    /// PKCS#1 `RSAPrivateKey` (`RSA PRIVATE KEY`).
    case pkcs1 = "pkcs1"
    /// PKCS#1 `RSAPublicKey` (`RSA PUBLIC KEY`).
    case pkcs1Public = "pkcs1-public"
    /// PKCS#8 `PrivateKeyInfo` (`PRIVATE KEY`), or `EncryptedPrivateKeyInfo` when encrypting.
    case pkcs8 = "pkcs8"
    /// SubjectPublicKeyInfo (`PUBLIC KEY`).
    case spki = "spki"
    /// SEC 1 `ECPrivateKey` (`EC PRIVATE KEY`), EC keys only.
    case sec1 = "sec1"
    /// `openssh-key-v1` private key.
    case openssh = "openssh"
    /// `ssh-ed25519 AAAA… comment`.
    case opensshPublic = "openssh-public"
    /// RFC 4716 `---- BEGIN SSH2 PUBLIC KEY ----`.
    case rfc4716 = "rfc4716"
    /// A JSON Web Key with the private members (RFC 7517/7518/8037).
    case jwk = "jwk"
    /// A JSON Web Key with the public members only.
    case jwkPublic = "jwk-public"
    /// A PKCS#12 file holding the key (and, through ``PKCS12File``, its certificates).
    case pkcs12 = "pkcs12"
    /// PuTTY private key file (`.ppk`), version 3 unless asked for 2.
    case ppk = "ppk"

    /// Whether the format holds a private key.
    public var isPrivate: Bool { [.pkcs1, .pkcs8, .sec1, .openssh, .jwk, .pkcs12, .ppk].contains(self) }
}

/// How an encrypted container was protected, for `inspect`.
public struct KeyEncryptionInfo: Sendable, Hashable {
    /// The cipher, in OpenSSL/OpenSSH spelling (`aes-256-cbc`, `aes256-ctr`, `des-ede3-cbc`, …).
    public var cipher: String
    /// The key derivation (`pbkdf2-hmac-sha256`, `scrypt`, `bcrypt-pbkdf`, `evp-bytestokey-md5`, `pbes1-md5`,
    /// `argon2id`/`argon2i`/`argon2d` and `ppk-v2-sha1` for PuTTY files, …).
    public var kdf: String?

    public init(cipher: String, kdf: String?) {
        self.cipher = cipher
        self.kdf = kdf
    }
}

/// A key as read from a file: the key and what it was stored in.
public struct DecodedKey: Sendable {
    /// The container.
    public var format: KeyFormat
    /// Its encoding.
    public var encoding: KeyEncoding
    /// The key.
    public var key: AsymmetricKey
    /// How it was encrypted, if it was.
    public var encryption: KeyEncryptionInfo?
    /// The comment (OpenSSH, RFC 4716, PPK), if any.
    public var comment: String?
    /// The options before the key of an `authorized_keys` line (`from="…",no-pty`), verbatim.
    public var options: String?
    /// What the container says about the key: JWK `kid`/`use`/`alg`, PKCS#12 friendly name and local key id.
    public var attributes = KeyAttributes()
    /// For an X.509 certificate: everything in it (``key`` is the certified public key).
    public var certificate: CertificateInfo?
    /// For a PKCS#10 request: everything in it (``key`` is the requested public key).
    public var request: CertificationRequest?

    public init(format: KeyFormat, encoding: KeyEncoding, key: AsymmetricKey, encryption: KeyEncryptionInfo? = nil, comment: String? = nil, options: String? = nil,
                certificate: CertificateInfo? = nil, request: CertificationRequest? = nil) {
        self.format = format
        self.encoding = encoding
        self.key = key
        self.encryption = encryption
        self.comment = comment
        self.options = options
        self.certificate = certificate
        self.request = request
    }
}
