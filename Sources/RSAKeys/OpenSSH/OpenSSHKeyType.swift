/// The key type names OpenSSH writes, and which of them Coffer handles (only `ssh-rsa`).
enum OpenSSHKeyType {
    /// The RSA key type, in public key lines, key blobs and private keys.
    static let rsa = "ssh-rsa"

    /// Key types that are recognised but not RSA: what they hold, and the lowercase algorithm
    /// identifier `inspect --json` prints (``RSAKeyError/algorithm``).
    static let unsupported: [String: (name: String, identifier: String)] = [
        "ssh-ed25519": ("Ed25519", "ed25519"),
        "ssh-ed448": ("Ed448", "ed448"),
        "ssh-dss": ("DSA", "dsa"),
        "ecdsa-sha2-nistp256": ("ECDSA P-256", "ec"),
        "ecdsa-sha2-nistp384": ("ECDSA P-384", "ec"),
        "ecdsa-sha2-nistp521": ("ECDSA P-521", "ec"),
        "sk-ssh-ed25519@openssh.com": ("Ed25519 security key", "ed25519"),
        "sk-ecdsa-sha2-nistp256@openssh.com": ("ECDSA P-256 security key", "ec"),
        "ssh-rsa-cert-v01@openssh.com": ("RSA certificate", "rsa-certificate"),
        "ssh-dss-cert-v01@openssh.com": ("DSA certificate", "dsa"),
        "ssh-ed25519-cert-v01@openssh.com": ("Ed25519 certificate", "ed25519"),
        "ecdsa-sha2-nistp256-cert-v01@openssh.com": ("ECDSA P-256 certificate", "ec"),
        "ecdsa-sha2-nistp384-cert-v01@openssh.com": ("ECDSA P-384 certificate", "ec"),
        "ecdsa-sha2-nistp521-cert-v01@openssh.com": ("ECDSA P-521 certificate", "ec"),
        "sk-ssh-ed25519-cert-v01@openssh.com": ("Ed25519 security key certificate", "ed25519"),
        "sk-ecdsa-sha2-nistp256-cert-v01@openssh.com": ("ECDSA P-256 security key certificate", "ec"),
    ]

    /// Whether `name` is a key type OpenSSH knows (RSA or not).
    static func isKnown<C: Collection<UInt8>>(_ name: C) -> Bool {
        let text = String(decoding: name, as: UTF8.self)
        return text == rsa || unsupported[text] != nil
    }

    /// Throws `.unsupportedAlgorithm` naming the key type when `name` is not `ssh-rsa`;
    /// `.malformed` when it is no key type at all.
    static func requireRSA<C: Collection<UInt8>>(_ name: C, in context: String, offset: Int) throws {
        let text = String(decoding: name, as: UTF8.self)
        if text == rsa { return }
        if let algorithm = unsupported[text] {
            var error = RSAKeyError(.unsupportedAlgorithm,
                                    "\(context) holds a \(text) key (\(algorithm.name)) at offset \(offset); only RSA keys (ssh-rsa) are supported",
                                    offset: offset)
            error.algorithm = algorithm.identifier
            throw error
        }
        throw RSAKeyError(.malformed,
                          "\(context) has unknown key type '\(SSHWireReader.printable(name))' at offset \(offset)",
                          offset: offset)
    }
}
