import CryptoOpenSSL

extension PublicKey {
    /// `SHA256:` and the base64 of SHA-256 over the SSH key blob, without `=` padding — exactly as
    /// `ssh-keygen -l -E sha256` prints it; `nil` for X25519 and X448, which SSH keys never hold.
    public var fingerprintSHA256: String? {
        guard let blob = try? OpenSSHPublicKey.wireBlob(self) else { return nil }
        return "SHA256:" + SSHBase64.encode(Digest.hash(.sha256, blob), padding: false)
    }

    /// `MD5:` and the MD5 of the SSH key blob as colon-separated lowercase hex pairs — exactly as
    /// `ssh-keygen -l -E md5` prints it; `nil` for X25519 and X448.
    public var fingerprintMD5: String? {
        guard let blob = try? OpenSSHPublicKey.wireBlob(self) else { return nil }
        return "MD5:" + Digest.hash(.md5, blob).map { Hex.encodeBytes([$0]) }.joined(separator: ":")
    }

    /// The key type `ssh-keygen -l` prints in parentheses: `RSA`, `ECDSA`, `ED25519`, `ED448`;
    /// for X25519 and X448 their names.
    public var sshLabel: String {
        switch algorithm {
        case .rsa: "RSA"
        case .ec: "ECDSA"
        case .ed25519: "ED25519"
        case .ed448: "ED448"
        case .x25519: "X25519"
        case .x448: "X448"
        }
    }
}
