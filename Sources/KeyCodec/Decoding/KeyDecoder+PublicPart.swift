import ASN1Kit
import AsymmetricKeys
import X509Kit

extension KeyDecoder {
    /// The public key an encrypted OpenSSH private key or an encrypted PuTTY key file stores in
    /// clear, read without the passphrase, as `ssh-keygen -l` and `puttygen -l` read it; `nil` for
    /// every other input (unencrypted files of those formats included, and PEM files that hold
    /// anything besides the one OpenSSH key).
    ///
    /// The ``DecodedKey`` holds the public key with the file's format and encryption; an OpenSSH
    /// key's comment is inside the encrypted part, so it has none. Nothing is derived or
    /// decrypted, so the file's KDF cost is not held against ``KDFLimits``: the caps guard the
    /// work a passphrase would start.
    ///
    /// - Throws: ``KeyError`` for a damaged header of such a file (`.malformed` with the offset,
    ///   `.unsupportedAlgorithm`).
    public static func encryptedPublicPart(_ bytes: [UInt8]) throws -> DecodedKey? {
        try KDFLimits.$current.withValue(uncappedLimits) {
            if PPKPrivateKey.isPPK(bytes) {
                let part = try PPKPrivateKey.publicKey(bytes)
                guard part.encryption != nil else { return nil }
                return DecodedKey(format: .ppk, encoding: .text, key: .publicKey(part.key), encryption: part.encryption, comment: part.comment)
            }
            let isBlob = bytes.starts(with: OpenSSHPrivateKey.magic)
            if !isBlob {
                guard let blocks = try? PEMParser.blocks(in: bytes), blocks.count == 1,
                      blocks[0].label == OpenSSHPrivateKey.label else { return nil }
            }
            let part = try OpenSSHPrivateKey.publicKey(bytes)
            guard part.encryption != nil else { return nil }
            return DecodedKey(format: .opensshPrivate, encoding: isBlob ? .der : .text, key: .publicKey(part.key), encryption: part.encryption)
        }
    }

    private static let uncappedLimits = KDFLimits(maximumIterations: .max, maximumMemory: .max, maximumPasses: .max, maximumRounds: .max,
                                                   maximumParallelism: .max)
}
