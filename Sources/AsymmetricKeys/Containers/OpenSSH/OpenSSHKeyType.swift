import CofferErrors

/// The key type names OpenSSH writes, and which of them Coffer handles: `ssh-rsa`, `ssh-ed25519`,
/// `ecdsa-sha2-nistp256/384/521` (RFC 4253, RFC 8709, RFC 5656), `ssh-ed448` (RFC 8709), `ssh-dss`
/// (RFC 4253 §6.6, read only) and the security keys `sk-ssh-ed25519@openssh.com` and
/// `sk-ecdsa-sha2-nistp256@openssh.com` (OpenSSH's PROTOCOL.u2f).
package enum OpenSSHKeyType {
    /// The RSA key type, in public key lines, key blobs and private keys.
    static let rsa = "ssh-rsa"
    /// The DSA key type.
    static let dsa = "ssh-dss"

    /// What a key type holds.
    enum Kind: Equatable {
        case rsa
        case ec(ECCurve)
        case octet(OctetKeyAlgorithm)
        case dsa
        /// `sk-ssh-ed25519@openssh.com`.
        case skEd25519
        /// `sk-ecdsa-sha2-nistp256@openssh.com`.
        case skECDSA
    }

    /// The kind of a key type Coffer handles, or `nil`.
    static func kind<C: Collection<UInt8>>(_ name: C) -> Kind? {
        if name.elementsEqual(rsa.utf8) { return .rsa }
        if name.elementsEqual(dsa.utf8) { return .dsa }
        if name.elementsEqual(SecurityKeyPublicKey.ed25519Type.utf8) { return .skEd25519 }
        if name.elementsEqual(SecurityKeyPublicKey.ecdsaType.utf8) { return .skECDSA }
        if let curve = ECCurve.allCases.first(where: { $0.sshKeyType.map { name.elementsEqual($0.utf8) } ?? false }) { return .ec(curve) }
        if let algorithm = OctetKeyAlgorithm.allCases.first(where: { $0.sshKeyType.map { name.elementsEqual($0.utf8) } ?? false }) {
            return .octet(algorithm)
        }
        return nil
    }

    /// The key type of `key`.
    ///
    /// - Throws: ``KeyError`` `.cannotConvert` for X25519 and X448, which SSH keys never hold, and
    ///   for EC keys on curves SSH has no key type for (secp256k1, brainpool) and RSA-PSS keys.
    static func name(for key: PublicKey) throws -> String {
        switch key {
        case .rsa(let key):
            guard key.pssRestriction == nil else {
                throw KeyError(.cannotConvert, "SSH has no key type for an RSA key restricted to PSS (id-RSASSA-PSS); ssh-rsa would drop the restriction")
            }
            return rsa
        case .dsa: return dsa
        case .securityKey(let key): return key.sshKeyType
        case .ec(let key): return try key.curve.requireSSHKeyType()
        case .octet(let key):
            guard let name = key.algorithm.sshKeyType else {
                throw KeyError(.cannotConvert, "SSH has no key type for \(key.algorithm.displayName) keys (they agree on secrets; SSH keys sign)")
            }
            return name
        }
    }

    /// Key types that are recognised but not handled: what they hold, and the lowercase algorithm
    /// identifier of ``KeyError/algorithm``.
    static let unsupported: [String: (name: String, identifier: String)] = [
        "ssh-rsa-cert-v01@openssh.com": ("RSA certificate", "rsa-certificate"),
        "ssh-dss-cert-v01@openssh.com": ("DSA certificate", "dsa"),
        "ssh-ed25519-cert-v01@openssh.com": ("Ed25519 certificate", "ed25519"),
        "ecdsa-sha2-nistp256-cert-v01@openssh.com": ("ECDSA P-256 certificate", "ec"),
        "ecdsa-sha2-nistp384-cert-v01@openssh.com": ("ECDSA P-384 certificate", "ec"),
        "ecdsa-sha2-nistp521-cert-v01@openssh.com": ("ECDSA P-521 certificate", "ec"),
        "sk-ssh-ed25519-cert-v01@openssh.com": ("Ed25519 security key certificate", "ed25519"),
        "sk-ecdsa-sha2-nistp256-cert-v01@openssh.com": ("ECDSA P-256 security key certificate", "ec"),
    ]

    /// Whether `name` is a key type OpenSSH knows (handled or not).
    package static func isKnown<C: Collection<UInt8>>(_ name: C) -> Bool {
        kind(name) != nil || unsupported[String(decoding: name, as: UTF8.self)] != nil
    }

    /// The kind of `name`; throws `.unsupportedAlgorithm` naming a recognised key type Coffer does
    /// not handle, `.malformed` for no key type at all.
    static func require<C: Collection<UInt8>>(_ name: C, in context: String, offset: Int) throws -> Kind {
        if let kind = kind(name) { return kind }
        let text = String(decoding: name, as: UTF8.self)
        if let algorithm = unsupported[text] {
            var error = KeyError(.unsupportedAlgorithm,
                                 "\(context) holds a \(text) key (\(algorithm.name)) at offset \(offset); Coffer handles ssh-rsa, ssh-ed25519, ssh-ed448, ecdsa-sha2-nistp256/384/521, ssh-dss and the sk-…@openssh.com security keys",
                                 offset: offset)
            error.algorithm = algorithm.identifier
            throw error
        }
        throw KeyError(.malformed,
                       "\(context) has unknown key type '\(SSHWireReader.printable(name))' at offset \(offset)",
                       offset: offset)
    }
}
