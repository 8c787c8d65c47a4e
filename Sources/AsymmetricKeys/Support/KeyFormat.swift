/// The container a key was read from. The raw values are stable lowercase names of the containers
/// (`pkcs8`, `openssh-private`, `x509-certificate`, …), fit to show or to store.
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
    /// OpenSSL's traditional `DSA PRIVATE KEY`.
    case dsaPrivate = "dsa-private"
    /// OpenSSL's traditional `DSA PRIVATE KEY` with legacy OpenSSL PEM encryption.
    case dsaPrivateEncrypted = "dsa-private-encrypted"
    case opensshPrivate = "openssh-private"
    case opensshPublic = "openssh-public"
    /// One line of an OpenSSH `known_hosts` file (KeyCodec's `DecodedKey.knownHosts` holds its hosts).
    case knownHosts = "known-hosts"
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
    /// A certificate of a PKCS#7 bundle (`.p7b`, `.p7c`; SignedData with certificates only).
    case pkcs7 = "pkcs7"
    /// PuTTY private key file (`PuTTY-User-Key-File-2:` / `-3:`).
    case ppk = "ppk"
}

extension KeyFormat {
    /// The structure's name in messages ("a PKCS#8 PrivateKeyInfo (PRIVATE KEY)").
    package var structureName: String {
        switch self {
        case .pkcs1Private: "a PKCS#1 RSAPrivateKey"
        case .pkcs1Public: "a PKCS#1 RSAPublicKey"
        case .spki: "a SubjectPublicKeyInfo (PUBLIC KEY)"
        case .pkcs8: "a PKCS#8 PrivateKeyInfo (PRIVATE KEY)"
        case .pkcs8Encrypted: "a PKCS#8 EncryptedPrivateKeyInfo (ENCRYPTED PRIVATE KEY)"
        case .x509Certificate: "an X.509 certificate"
        case .pkcs10Request: "a PKCS#10 certification request"
        case .sec1Private: "an EC private key (SEC 1)"
        case .dsaPrivate: "a DSA private key"
        case .pkcs12: "a PKCS#12 file (PFX)"
        case .pkcs7: "a PKCS#7 SignedData (certificate bundle)"
        default: "a \(rawValue) key"
        }
    }
}
