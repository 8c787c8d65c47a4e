/// The formats a key can be written in. The raw values are stable lowercase names of the formats
/// (`pkcs8`, `openssh-public`, `jwk`, …), fit to take from a user.
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
