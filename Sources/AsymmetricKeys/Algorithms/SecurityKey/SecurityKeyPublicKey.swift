import CofferErrors

/// The public key of a FIDO/U2F security key as OpenSSH stores it (PROTOCOL.u2f in OpenSSH's
/// sources): an Ed25519 or ECDSA P-256 key made by the authenticator, and the application string
/// (`ssh:` by default) it was made for, which every signature covers.
///
/// ```
/// string "sk-ssh-ed25519@openssh.com"           string "sk-ecdsa-sha2-nistp256@openssh.com"
/// string key (32 bytes)                         string "nistp256"
/// string application                            string Q (uncompressed point)
///                                               string application
/// ```
/// Coffer reads, shows, fingerprints, matches and writes these public keys (OpenSSH line, RFC
/// 4716); signing needs the authenticator, which Coffer does not talk to.
public struct SecurityKeyPublicKey: Sendable, Hashable {
    /// The authenticator's key.
    public enum Key: Sendable, Hashable {
        case ed25519(OctetPublicKey)
        case ecdsaP256(ECPublicKey)
    }

    /// The authenticator's key.
    public let key: Key
    /// The application string the key was made for (`ssh:` unless `ssh-keygen -O application=…`).
    public let application: [UInt8]

    /// The longest application string read (OpenSSH's `sshsk_enroll` refuses longer ones than 128
    /// bytes after `ssh:`; this leaves room).
    public static let maximumApplicationLength = 1024

    /// Creates a key.
    ///
    /// - Throws: ``KeyError`` `.malformed` for an Ed25519 key of another algorithm, an EC key off
    ///   P-256, or an empty or over-long application.
    public init(key: Key, application: some Collection<UInt8>) throws {
        switch key {
        case .ed25519(let octet) where octet.algorithm != .ed25519:
            throw KeyError(.malformed, "a security key holds Ed25519 or ECDSA P-256 keys, not \(octet.algorithm.displayName)")
        case .ecdsaP256(let ec) where ec.curve != .p256:
            throw KeyError(.malformed, "a security key holds ECDSA keys on P-256 only, not \(ec.curve.rawValue)")
        default:
            break
        }
        guard !application.isEmpty, application.count <= Self.maximumApplicationLength else {
            throw KeyError(.malformed, "the security key's application string has \(application.count) bytes; expected 1 to \(Self.maximumApplicationLength)")
        }
        self.key = key
        self.application = Array(application)
    }

    /// The application for people (its bytes as UTF-8, control characters escaped).
    public var applicationText: String {
        String(String(decoding: application, as: UTF8.self).unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    }

    /// The OpenSSH key type: `sk-ssh-ed25519@openssh.com` or `sk-ecdsa-sha2-nistp256@openssh.com`.
    public var sshKeyType: String {
        switch key {
        case .ed25519: Self.ed25519Type
        case .ecdsaP256: Self.ecdsaType
        }
    }

    static let ed25519Type = "sk-ssh-ed25519@openssh.com"
    static let ecdsaType = "sk-ecdsa-sha2-nistp256@openssh.com"
    /// The curve name inside an `sk-ecdsa` blob: security keys are P-256 only (PROTOCOL.u2f).
    static let ecdsaCurveIdentifier = "nistp256"

    /// The authenticator's key as a plain public key (no application).
    public var innerKey: PublicKey {
        switch key {
        case .ed25519(let key): .octet(key)
        case .ecdsaP256(let key): .ec(key)
        }
    }

    /// ``KeyAlgorithmName/skEd25519`` or ``KeyAlgorithmName/skECDSA``.
    public var algorithmName: KeyAlgorithmName {
        switch key {
        case .ed25519: .skEd25519
        case .ecdsaP256: .skECDSA
        }
    }
}
