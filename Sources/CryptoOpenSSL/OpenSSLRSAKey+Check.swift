internal import COpenSSL

extension OpenSSLRSAKey {
    /// Whether OpenSSL finds the key consistent (`EVP_PKEY_check` for a private key: the primes are
    /// prime, n = p·q·…, d·e ≡ 1 mod λ(n), the CRT values match; `EVP_PKEY_public_check` for a
    /// public key: n odd and not too small, e odd and greater than 1).
    ///
    /// - Returns: `false` when a check fails; the reasons are discarded.
    /// - Throws: ``CryptoError`` `.openSSL` when the check cannot run at all.
    public func isConsistent() throws -> Bool {
        try withOperationContext { context in
            let status = isPrivate ? EVP_PKEY_check(context) : EVP_PKEY_public_check(context)
            return try Self.verdict(status, isPrivate ? "EVP_PKEY_check" : "EVP_PKEY_public_check", failure: "the key check could not run")
        }
    }
}
