import CryptoOpenSSL

extension DSAPublicKey {
    /// The key as OpenSSL holds it, to verify signatures with. Built on each call: DSA
    /// signatures are rare (old certificates and requests), so the key keeps no cache.
    ///
    /// - Throws: ``CryptoError`` when OpenSSL refuses the numbers.
    public func openSSLKey() throws -> OpenSSLDSAKey {
        try OpenSSLDSAKey(p: p, q: q, g: g, y: y)
    }
}
