import AsymmetricKeys
import CryptoOpenSSL

extension JWSAlgorithm {
    /// The signature or MAC over `input` with `key` (RFC 7518 §3): HMAC with the secret, or the
    /// private key's signature (ECDSA as r ‖ s, PSS with a digest-long salt).
    ///
    /// The caller has checked that the key allows this algorithm (``JOSEKey/checkAllows(_:)``).
    ///
    /// - Throws: ``JOSEError`` `.invalidKey` for a public key; the signing failure with the
    ///   `KeyError` or `CryptoError` as its cause.
    func sign(_ input: [UInt8], with key: JOSEKey) throws(JOSEError) -> [UInt8] {
        switch key.material {
        case .symmetric(let secret):
            guard isHMAC, let digest else { throw JOSEError(.invalidKey, "\(self) needs an asymmetric key") }
            return try JOSEError.wrapping(.invalidKey, "\(self) MAC") { try HMAC.authenticationCode(digest, key: secret, data: input) }
        case .asymmetric(let asymmetric):
            guard let privateKey = asymmetric.privateKey else {
                throw JOSEError(.invalidKey, "signing with \(self) needs a private key; this is a public \(asymmetric.algorithmDescription) key")
            }
            guard let scheme = signatureScheme else { throw JOSEError(.invalidKey, "\(self) needs a symmetric key") }
            return try JOSEError.wrapping(.invalidKey, "\(self) signing") { try privateKey.sign(input, scheme: scheme) }
        }
    }

    /// Whether `signature` is this algorithm's signature or MAC over `input` under `key`.
    ///
    /// An HMAC is recomputed and compared in constant time (`CRYPTO_memcmp`); a signature of the
    /// wrong length, or one OpenSSL cannot read, is simply not valid.
    func verify(_ signature: [UInt8], over input: [UInt8], with key: JOSEKey) throws(JOSEError) -> Bool {
        switch key.material {
        case .symmetric(let secret):
            guard isHMAC, let digest else { return false }
            let expected = try JOSEError.wrapping(.invalidKey, "\(self) MAC") { try HMAC.authenticationCode(digest, key: secret, data: input) }
            return constantTimeEquals(expected, signature)
        case .asymmetric:
            guard let scheme = signatureScheme else { return false }
            let publicKey = try key.publicKey()
            do {
                return try publicKey.verify(signature, for: input, scheme: scheme)
            } catch {
                // A raw ECDSA signature of the wrong length, an RSA signature OpenSSL cannot parse:
                // not a valid signature, whatever the reason.
                return false
            }
        }
    }
}
