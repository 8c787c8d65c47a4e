import ASN1Kit
import CryptoOpenSSL

extension PublicKey {
    /// `SHA256:` and the base64 of SHA-256 over the SSH key blob, without `=` padding — exactly as
    /// `ssh-keygen -l -E sha256` prints it; `nil` for X25519 and X448, which SSH keys never hold.
    public var fingerprintSHA256: String? {
        guard let blob = try? OpenSSHPublicKey.wireBlob(self) else { return nil }
        return Self.sshFingerprint(.sha256, of: blob)
    }

    /// `MD5:` and the MD5 of the SSH key blob as colon-separated lowercase hex pairs — exactly as
    /// `ssh-keygen -l -E md5` prints it; `nil` for X25519 and X448.
    public var fingerprintMD5: String? {
        guard let blob = try? OpenSSHPublicKey.wireBlob(self) else { return nil }
        return Self.sshFingerprint(.md5, of: blob)
    }

    /// The Bubble Babble of the SHA-1 of the SSH key blob (`xopan-sipab-…-kixax`) — exactly as
    /// `ssh-keygen -B` prints it; `nil` for X25519 and X448.
    public var fingerprintBubbleBabble: String? {
        guard let blob = try? OpenSSHPublicKey.wireBlob(self) else { return nil }
        return BubbleBabble.encode(Digest.hash(.sha1, blob))
    }

    /// The one SSH fingerprint formatter: `SHA256:` and unpadded base64, or `MD5:` and
    /// colon-separated lowercase hex pairs, of the digest of an SSH key blob.
    static func sshFingerprint(_ digest: DigestAlgorithm, of blob: [UInt8]) -> String {
        let hash = Digest.hash(digest, blob)
        return digest == .md5
            ? "MD5:" + hash.map { Hex.encode([$0]) }.joined(separator: ":")
            : "SHA256:" + Base64.encode(hash, padding: false)
    }

    /// The base64 of SHA-256 over the SubjectPublicKeyInfo DER: the `pin-sha256` of HPKP
    /// (RFC 7469 §2.4), as `openssl pkey -pubout -outform DER | openssl dgst -sha256 -binary |
    /// base64` prints it. Defined for every algorithm; a security key, which has no
    /// SubjectPublicKeyInfo, gives its authenticator key's.
    public var spkiSHA256: String { spkiPin.base64 }

    /// The SHA-256 of the SubjectPublicKeyInfo DER as a pin (``spkiSHA256`` is its base64); a
    /// security key, which has no SubjectPublicKeyInfo, gives its authenticator key's.
    public var spkiPin: SPKIPin {
        if case .securityKey(let key) = self { return key.innerKey.spkiPin }
        return SPKIPin(subjectPublicKeyInfo: SubjectPublicKeyInfo.encode(self))
    }

    /// `SPKI-SHA256:` and the base64 of SHA-256 over the SubjectPublicKeyInfo DER (the
    /// ``spkiSHA256`` pin), or `SPKI-MD5:` and colon-separated hex pairs: the fingerprint of an EC
    /// key on a curve SSH has no key type for (secp256k1, brainpool) or of an RSA-PSS key, in place
    /// of the SSH one.
    public func spkiFingerprint(_ digest: DigestAlgorithm) -> String {
        let hash = Digest.hash(digest, SubjectPublicKeyInfo.encode(self))
        return digest == .md5
            ? "SPKI-MD5:" + hash.map { Hex.encode([$0]) }.joined(separator: ":")
            : "SPKI-\(digest.shortName.uppercased()):" + Base64.encode(hash)
    }

    /// The RFC 7638 JWK thumbprint (SHA-256, base64url); `nil` for the keys no JWK holds: DSA
    /// and security keys (no key type) and EC keys on the brainpool curves (no curve name).
    public var jwkThumbprint: String? {
        switch self {
        case .dsa, .securityKey: return nil
        case .ec(let key) where key.curve.jwkName == nil: return nil
        default: return JSONWebKey.thumbprint(self)
        }
    }

    /// The key type `ssh-keygen -l` prints in parentheses: `RSA`, `ECDSA`, `ED25519`, `ED448`,
    /// `DSA`, `ED25519-SK`, `ECDSA-SK`;
    /// for X25519 and X448 their names.
    public var sshLabel: String {
        switch algorithm {
        case .rsa: "RSA"
        case .ec: "ECDSA"
        case .ed25519: "ED25519"
        case .ed448: "ED448"
        case .x25519: "X25519"
        case .x448: "X448"
        case .dsa: "DSA"
        case .skEd25519: "ED25519-SK"
        case .skECDSA: "ECDSA-SK"
        }
    }
}
