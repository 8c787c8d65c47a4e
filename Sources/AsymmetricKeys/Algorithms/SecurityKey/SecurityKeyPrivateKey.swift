import CofferErrors
import CryptoOpenSSL

/// What an OpenSSH private key file of a FIDO/U2F security key holds (PROTOCOL.u2f): the public
/// key, the flags the authenticator was asked for and the key handle it returned. The private key
/// itself never leaves the authenticator, so this key cannot sign without it; Coffer shows,
/// fingerprints and matches it and writes its public key.
///
/// ```
/// (the public key's fields, without the type)
/// string application
/// uint8  flags          0x01 user presence required, 0x04 user verification required,
///                       0x20 resident (discoverable) key
/// string key handle
/// string reserved
/// ```
public struct SecurityKeyPrivateKey: Sendable {
    /// The public key.
    public let publicKey: SecurityKeyPublicKey
    /// The flags byte.
    public let flags: UInt8
    /// The authenticator's key handle (kept in wiped storage: with the authenticator it signs).
    public let keyHandle: SecureBytes
    /// The reserved field, as stored (empty in what ssh-keygen writes).
    public let reserved: [UInt8]

    public init(publicKey: SecurityKeyPublicKey, flags: UInt8, keyHandle: some Collection<UInt8>, reserved: some Collection<UInt8>) {
        self.publicKey = publicKey
        self.flags = flags
        var handle = Array(keyHandle)
        defer { SecureMemory.zero(&handle) }
        self.keyHandle = SecureBytes(handle)
        self.reserved = Array(reserved)
    }

    /// The flags by name, as OpenSSH names them: `user-presence-required`,
    /// `user-verification-required`, `resident`, and `0xNN` for bits OpenSSH does not define.
    public var flagNames: [String] {
        var names: [String] = []
        var rest = flags
        for (bit, name) in [(UInt8(0x01), "user-presence-required"), (0x04, "user-verification-required"), (0x20, "resident")] where flags & bit != 0 {
            names.append(name)
            rest &= ~bit
        }
        if rest != 0 { names.append("0x" + String(rest, radix: 16)) }
        return names
    }

    /// The error for what a security key file cannot do without its authenticator.
    package static func needsAuthenticator(_ operation: String) -> KeyError {
        var error = KeyError(.unsupportedAlgorithm,
                             "a FIDO security key (sk-…@openssh.com) keeps its private key in the authenticator; Coffer does not \(operation) with it (use ssh-keygen -Y sign with the authenticator attached); inspect, fingerprint, match and public-key conversions work")
        error.algorithm = "sk"
        return error
    }
}
