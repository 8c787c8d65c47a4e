import CryptoOpenSSL

extension PublicKey {
    /// Verifies `signature` over `message` under `scheme`. RSA-PSS takes the salt length from the
    /// padding (`.auto` accepts any); a raw ECDSA signature must be twice the coordinate size.
    ///
    /// - Returns: `true` when it verifies, `false` for any wrong signature or message.
    /// SHA-1 and SHA-224 are accepted (X.509 and PKCS#10 signatures may use them); an RSA signature
    /// over MD5 is refused, as it was before there was one verify for every algorithm. DSA keys
    /// verify (a DER `Dss-Sig-Value`) but do not sign.
    ///
    /// - Throws: ``KeyError`` `.invalidArgument` for a scheme of another algorithm or an RSA
    ///   signature over MD5;
    ///   `.unsupportedAlgorithm` for X25519 and X448 keys;
    ///   `.malformed` for a raw ECDSA signature of the wrong length.
    public func verify(_ signature: [UInt8], for message: [UInt8], scheme requested: SignatureScheme) throws -> Bool {
        // A key restricted to PSS (id-RSASSA-PSS) verifies only within its parameters.
        var scheme = requested
        if case .rsa(let key) = self, let restriction = key.pssRestriction {
            scheme = try restriction.scheme(for: requested)
        }
        switch (self, scheme) {
        case (.rsa(let key), .rsa(let padding, let digest)):
            guard digest != .md5 else {
                throw KeyError(.invalidArgument, "\(digest.shortName) is not supported for RSA signatures")
            }
            let openSSLKey = try key.openSSLKey()
            return try KeyError.fromOpenSSL("RSA signature verification failed") {
                try openSSLKey.verify(signature: signature, message: message, algorithm: digest, padding: padding)
            }
        case (.ec(let key), .ecdsa(let digest, let format)):
            let der = format == .der ? signature : try ECDSASignatureFormat.der(fromRaw: signature, curve: key.curve)
            return try KeyError.fromOpenSSL("ECDSA verification") {
                try key.openSSLKey().verify(signature: der, message: message, digest: digest ?? key.curve.digest)
            }
        case (.dsa(let key), .dsa(let digest)):
            return try KeyError.fromOpenSSL("DSA verification") {
                try key.openSSLKey().verify(signature: signature, message: message, digest: digest)
            }
        case (.octet(let key), .eddsa) where key.algorithm.isSignature:
            return try KeyError.fromOpenSSL("\(key.algorithm.displayName) verification") {
                try key.openSSLKey().verify(signature: signature, message: message, digest: nil)
            }
        default:
            throw scheme.mismatch(algorithm, description: algorithmDescription)
        }
    }
}
