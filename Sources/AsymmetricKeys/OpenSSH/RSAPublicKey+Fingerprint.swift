import ASN1Kit
import CryptoOpenSSL

extension RSAPublicKey {
    /// `SHA256:` and the base64 of SHA-256 over the SSH key blob, without `=` padding — exactly as
    /// `ssh-keygen -l -E sha256` prints it.
    public var fingerprintSHA256: String {
        let digest = Digest.hash(.sha256, OpenSSHPublicKey.wireBlob(self))
        return "SHA256:" + Base64.encode(digest, padding: false)
    }

    /// `MD5:` and the MD5 of the SSH key blob as colon-separated lowercase hex pairs — exactly as
    /// `ssh-keygen -l -E md5` prints it.
    public var fingerprintMD5: String {
        let digest = Digest.hash(.md5, OpenSSHPublicKey.wireBlob(self))
        return "MD5:" + digest.map { Hex.encode([$0]) }.joined(separator: ":")
    }
}
