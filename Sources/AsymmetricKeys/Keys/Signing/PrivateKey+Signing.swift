import CryptoOpenSSL

extension PrivateKey {
    /// Signs `message` under `scheme`, as `openssl dgst -sign` (RSA, ECDSA) and
    /// `openssl pkeyutl -sign -rawin` (EdDSA) do. RSA-PSS signs with a salt as long as the digest
    /// unless the padding says otherwise.
    ///
    /// - Throws: ``KeyError`` `.invalidArgument` for a scheme of another algorithm or SHA-1 (or
    ///   another digest) for a new RSA signature; `.unsupportedAlgorithm` for X25519 and X448
    ///   keys; `.operationFailed` when OpenSSL fails.
    public func sign(_ message: [UInt8], scheme requested: SignatureScheme) throws -> [UInt8] {
        // A key restricted to PSS (id-RSASSA-PSS) signs only within its parameters.
        var scheme = requested
        if case .rsa(let key) = self, let restriction = key.pssRestriction {
            scheme = try restriction.scheme(for: requested)
        }
        switch (self, scheme) {
        case (.rsa(let key), .rsa(let padding, let digest)):
            guard [.sha256, .sha384, .sha512].contains(digest) else {
                throw KeyError(.invalidArgument, "\(digest.shortName) is not accepted for new signatures (use sha256, sha384 or sha512)")
            }
            let openSSLKey = try key.openSSLKey()
            return try KeyError.fromOpenSSL("RSA signing failed") { try openSSLKey.sign(message: message, algorithm: digest, padding: padding) }
        case (.ec(let key), .ecdsa(let digest, let format)):
            let der = try KeyError.fromOpenSSL("ECDSA signing") { try key.openSSLKey().sign(message: message, digest: digest ?? key.curve.digest) }
            return format == .der ? der : try ECDSASignatureFormat.raw(fromDER: der, curve: key.curve)
        case (.octet(let key), .eddsa) where key.algorithm.isSignature:
            return try KeyError.fromOpenSSL("\(key.algorithm.displayName) signing") { try key.openSSLKey().sign(message: message, digest: nil) }
        default:
            throw scheme.mismatch(algorithm, description: algorithmDescription)
        }
    }
}
