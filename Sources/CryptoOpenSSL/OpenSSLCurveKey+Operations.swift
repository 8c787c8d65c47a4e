internal import COpenSSL

extension OpenSSLCurveKey {
    /// Signs a message (`EVP_DigestSign`): ECDSA over the `digest` of the message, with the
    /// signature as the DER `ECDSA-Sig-Value` that `openssl dgst -sign` writes; Ed25519 and Ed448
    /// pure (no pre-hash, `digest` must be `nil`), as `openssl pkeyutl -sign -rawin`.
    ///
    /// - Throws: ``CryptoError`` `.invalidArgument` for a public key, an X25519/X448 key, a digest
    ///   given for EdDSA or missing for ECDSA; `.openSSL` on failure.
    public func sign(message: [UInt8], digest: DigestAlgorithm?) throws -> [UInt8] {
        let operation = "EVP_DigestSign"
        guard isPrivate else { throw CryptoError.invalidArgument(operation, "signing needs a private key") }
        try checkSignatureDigest(digest, operation)
        return try withDigestContext(signing: true, digest: digest) { context in
            // EVP_PKEY_get_size: the largest signature (a DER ECDSA-Sig-Value, or the fixed EdDSA size).
            var length = Int(EVP_PKEY_get_size(key))
            var output = [UInt8](repeating: 0, count: length)
            let status = message.withUnsafeBufferPointer { messageBytes in
                output.withUnsafeMutableBufferPointer { EVP_DigestSign(context, $0.baseAddress, &length, messageBytes.baseAddress, messageBytes.count) }
            }
            guard status == 1 else { throw CryptoError.openSSL(operation, "signing failed") }
            output.removeLast(output.count - length)
            return output
        }
    }

    /// Verifies a signature over a message (`EVP_DigestVerify`); see ``sign(message:digest:)``.
    ///
    /// - Returns: `true` when the signature is valid, `false` for any wrong signature or message.
    public func verify(signature: [UInt8], message: [UInt8], digest: DigestAlgorithm?) throws -> Bool {
        let operation = "EVP_DigestVerify"
        try checkSignatureDigest(digest, operation)
        return try withDigestContext(signing: false, digest: digest) { context in
            let status = signature.withUnsafeBufferPointer { signatureBytes in
                message.withUnsafeBufferPointer {
                    EVP_DigestVerify(context, signatureBytes.baseAddress, signatureBytes.count, $0.baseAddress, $0.count)
                }
            }
            // 0 is a wrong signature; a malformed DER signature makes ECDSA fail with -1: also "no".
            OpenSSLErrorQueue.clear()
            return status == 1
        }
    }

    /// The shared secret with `peer` (`EVP_PKEY_derive`): ECDH on the NIST curves, X25519, X448,
    /// as `openssl pkeyutl -derive` prints it.
    ///
    /// - Throws: ``CryptoError`` `.invalidArgument` for a public key, a key that cannot agree on
    ///   secrets, or a peer of another type.
    public func derive(peer: OpenSSLCurveKey) throws -> SecureBytes {
        let operation = "EVP_PKEY_derive"
        guard isPrivate else { throw CryptoError.invalidArgument(operation, "deriving a secret needs a private key") }
        guard type.canDerive else { throw CryptoError.invalidArgument(operation, "\(type.name) keys sign; they do not agree on secrets") }
        guard peer.type == type else {
            throw CryptoError.invalidArgument(operation, "the peer key is \(peer.type.name), not \(type.name)")
        }
        return try withOperationContext { context in
            guard EVP_PKEY_derive_init(context) == 1 else { throw CryptoError.openSSL("EVP_PKEY_derive_init") }
            guard EVP_PKEY_derive_set_peer(context, peer.key) == 1 else {
                throw CryptoError.openSSL("EVP_PKEY_derive_set_peer", "OpenSSL refused the peer key")
            }
            var length = 0
            guard EVP_PKEY_derive(context, nil, &length) == 1 else { throw CryptoError.openSSL(operation, "cannot size the secret") }
            var secretLength = length
            let secret = try SecureBytes(count: length) { buffer in
                guard EVP_PKEY_derive(context, buffer.bindMemory(to: UInt8.self).baseAddress, &secretLength) == 1 else {
                    throw CryptoError.openSSL(operation, "the derivation failed (is the peer's public key valid?)")
                }
            }
            guard secretLength == length else { throw CryptoError.openSSL(operation, "the secret has an unexpected length") }
            return secret
        }
    }

    /// OpenSSL's own validation of the key (`EVP_PKEY_check` for a private key, which includes the
    /// pairwise check of EC keys; `EVP_PKEY_public_check` for a public one).
    public func openSSLCheck() throws -> Bool {
        try withOperationContext { context in
            let status = isPrivate ? EVP_PKEY_check(context) : EVP_PKEY_public_check(context)
            switch status {
            case 1: return true
            case 0:
                OpenSSLErrorQueue.clear()
                return false
            default:
                // -2: the check is not implemented for this key type; the caller's own checks stand.
                OpenSSLErrorQueue.clear()
                return true
            }
        }
    }

    private func checkSignatureDigest(_ digest: DigestAlgorithm?, _ operation: String) throws {
        guard type.canSign else { throw CryptoError.invalidArgument(operation, "\(type.name) keys agree on secrets; they do not sign") }
        if type.isEC && digest == nil {
            throw CryptoError.invalidArgument(operation, "ECDSA needs a digest")
        }
        if !type.isEC, let digest {
            throw CryptoError.invalidArgument(operation, "\(type.name) signs the message itself (pure EdDSA); a \(digest.rawValue) digest does not apply")
        }
    }

    private func withOperationContext<Result>(_ body: (OpaquePointer) throws -> Result) throws -> Result {
        OpenSSLErrorQueue.clear()
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else {
            throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_pkey", "cannot start a \(type.name) operation")
        }
        defer { EVP_PKEY_CTX_free(context) }
        return try body(context)
    }

    private func withDigestContext<Result>(signing: Bool, digest: DigestAlgorithm?, _ body: (OpaquePointer) throws -> Result) throws -> Result {
        OpenSSLErrorQueue.clear()
        guard let context = EVP_MD_CTX_new() else { throw CryptoError.openSSL("EVP_MD_CTX_new", "out of memory") }
        defer { EVP_MD_CTX_free(context) }
        let status = signing
            ? EVP_DigestSignInit_ex(context, nil, digest?.openSSLName, nil, nil, key, nil)
            : EVP_DigestVerifyInit_ex(context, nil, digest?.openSSLName, nil, nil, key, nil)
        guard status == 1 else {
            throw CryptoError.openSSL(signing ? "EVP_DigestSignInit_ex" : "EVP_DigestVerifyInit_ex")
        }
        return try body(context)
    }
}
