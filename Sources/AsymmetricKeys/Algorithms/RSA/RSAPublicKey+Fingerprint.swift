import CryptoOpenSSL

extension RSAPublicKey {
    /// ``PublicKey/fingerprintSHA256`` of this key, which every RSA key has; for the repository's
    /// RSA-only code (DownloadPipeline's decryptor identities). Others use ``PublicKey``'s.
    package var fingerprintSHA256: String { PublicKey.sshFingerprint(.sha256, of: OpenSSHPublicKey.rsaWireBlob(self)) }

    /// ``PublicKey/fingerprintMD5`` of this key, which every RSA key has.
    package var fingerprintMD5: String { PublicKey.sshFingerprint(.md5, of: OpenSSHPublicKey.rsaWireBlob(self)) }
}
