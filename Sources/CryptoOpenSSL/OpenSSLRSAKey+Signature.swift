internal import COpenSSL

extension OpenSSLRSAKey {
    /// Signs a message: hashes it with `algorithm` and signs the digest (`EVP_DigestSign`), as
    /// `openssl dgst -sign` does.
    ///
    /// - Returns: Exactly ``blockSize`` bytes.
    /// - Throws: ``CryptoError`` `.invalidArgument` for a public key or a key too small for the
    ///   padding, `.openSSL` on failure.
    public func sign(message: [UInt8], algorithm: DigestAlgorithm, padding: RSASignaturePadding) throws -> [UInt8] {
        let operation = "EVP_DigestSign"
        try requirePrivate(operation)
        return try withDigestContext(signing: true, algorithm: algorithm, padding: padding) { digestContext in
            var output = [UInt8](repeating: 0, count: blockSize)
            var length = blockSize
            let status = message.withUnsafeBufferPointer { messageBytes in
                output.withUnsafeMutableBufferPointer { out in
                    EVP_DigestSign(digestContext, out.baseAddress, &length, messageBytes.baseAddress, messageBytes.count)
                }
            }
            guard status == 1 else {
                throw CryptoError.openSSL(operation, "signing failed (is the key large enough for \(algorithm.rawValue) with this padding?)")
            }
            output.removeLast(output.count - length)
            return output
        }
    }

    /// Verifies a signature over a message (`EVP_DigestVerify`).
    ///
    /// - Returns: `true` when the signature is valid, `false` for any wrong signature, message,
    ///   key or padding.
    /// - Throws: ``CryptoError`` only for misuse or an internal OpenSSL failure.
    public func verify(signature: [UInt8], message: [UInt8], algorithm: DigestAlgorithm, padding: RSASignaturePadding) throws -> Bool {
        let operation = "EVP_DigestVerify"
        guard signature.count == blockSize else { return false }
        return try withDigestContext(signing: false, algorithm: algorithm, padding: padding) { digestContext in
            let status = signature.withUnsafeBufferPointer { signatureBytes in
                message.withUnsafeBufferPointer { messageBytes in
                    EVP_DigestVerify(digestContext, signatureBytes.baseAddress, signatureBytes.count, messageBytes.baseAddress, messageBytes.count)
                }
            }
            return try Self.verdict(status, operation)
        }
    }

    /// Signs a precomputed digest (`EVP_PKEY_sign` with a signature digest set).
    ///
    /// - Parameter digest: Exactly `algorithm.outputSize` bytes.
    /// - Throws: ``CryptoError`` `.invalidArgument` for a public key or a wrong digest length.
    public func signDigest(_ digest: [UInt8], algorithm: DigestAlgorithm, padding: RSASignaturePadding) throws -> [UInt8] {
        let operation = "EVP_PKEY_sign"
        try requirePrivate(operation)
        guard digest.count == algorithm.outputSize else {
            throw CryptoError.invalidArgument(operation, "a \(algorithm.rawValue) digest has \(algorithm.outputSize) bytes, got \(digest.count)")
        }
        return try blockOperation(operation, digest, failure: .openSSL, initialize: { EVP_PKEY_sign_init($0) },
                                  configure: { try Self.configure($0, padding, algorithm: algorithm) }, perform: { EVP_PKEY_sign($0, $1, $2, $3, $4) })
    }

    /// Verifies a signature over a precomputed digest (`EVP_PKEY_verify`).
    ///
    /// - Returns: `true` when valid, `false` otherwise.
    /// - Throws: ``CryptoError`` only for misuse (such as a wrong digest length).
    public func verifyDigest(signature: [UInt8], digest: [UInt8], algorithm: DigestAlgorithm, padding: RSASignaturePadding) throws -> Bool {
        let operation = "EVP_PKEY_verify"
        guard digest.count == algorithm.outputSize else {
            throw CryptoError.invalidArgument(operation, "a \(algorithm.rawValue) digest has \(algorithm.outputSize) bytes, got \(digest.count)")
        }
        guard signature.count == blockSize else { return false }
        return try withOperationContext { context in
            guard EVP_PKEY_verify_init(context) == 1 else {
                throw CryptoError.openSSL("EVP_PKEY_verify_init")
            }
            try Self.configure(context, padding, algorithm: algorithm)
            let status = signature.withUnsafeBufferPointer { signatureBytes in
                digest.withUnsafeBufferPointer { digestBytes in
                    EVP_PKEY_verify(context, signatureBytes.baseAddress, signatureBytes.count, digestBytes.baseAddress, digestBytes.count)
                }
            }
            return try Self.verdict(status, operation)
        }
    }

    /// "Encrypts" raw data with the private key using PKCS#1 type 1 padding and no DigestInfo —
    /// what `openssl rsautl -sign` does (`EVP_PKEY_sign` with `RSA_PKCS1_PADDING` and no digest).
    ///
    /// - Parameter block: At most k − 11 bytes.
    /// - Returns: Exactly ``blockSize`` bytes.
    /// - Throws: ``CryptoError`` `.invalidArgument` for a public key or an oversized block.
    public func signRawPKCS1Type1(_ block: [UInt8]) throws -> [UInt8] {
        let operation = "EVP_PKEY_sign"
        try requirePrivate(operation)
        let limit = blockSize - 11
        guard block.count <= limit else {
            throw CryptoError.invalidArgument(operation, "a \(bits)-bit key takes at most \(limit) bytes per block, got \(block.count)")
        }
        return try blockOperation(operation, block, failure: .openSSL, initialize: { EVP_PKEY_sign_init($0) },
                                  configure: { try Self.setPadding($0, RSA_PKCS1_PADDING) }, perform: { EVP_PKEY_sign($0, $1, $2, $3, $4) })
    }

    /// Recovers data made by ``signRawPKCS1Type1(_:)`` with the public key — `openssl rsautl
    /// -verify -pubin` (`EVP_PKEY_verify_recover` with `RSA_PKCS1_PADDING`).
    ///
    /// - Parameter block: The block, at most ``blockSize`` bytes.
    /// - Throws: ``CryptoError`` `.badDecrypt` when the type 1 padding does not check out (a wrong
    ///   key or data not made this way), `.invalidArgument` for an oversized block.
    public func verifyRecover(_ block: [UInt8]) throws -> [UInt8] {
        let operation = "EVP_PKEY_verify_recover"
        guard !block.isEmpty, block.count <= blockSize else {
            throw CryptoError.invalidArgument(operation, "a \(bits)-bit key takes blocks of \(blockSize) bytes, got \(block.count)")
        }
        return try blockOperation(operation, block, failure: .badDecrypt, initialize: { EVP_PKEY_verify_recover_init($0) },
                                  configure: { try Self.setPadding($0, RSA_PKCS1_PADDING) },
                                  perform: { EVP_PKEY_verify_recover($0, $1, $2, $3, $4) })
    }

    // MARK: - Helpers

    /// Sets the padding and the signature digest on a sign or verify context.
    static func configure(_ context: OpaquePointer, _ padding: RSASignaturePadding, algorithm: DigestAlgorithm) throws {
        try applyPadding(context, padding, algorithm: algorithm)
        guard EVP_PKEY_CTX_set_signature_md(context, algorithm.messageDigest) == 1 else {
            throw CryptoError.openSSL("EVP_PKEY_CTX_set_signature_md", "cannot sign with \(algorithm.rawValue)")
        }
    }

    /// Sets the padding mode and, for PSS, the salt length and the MGF1 digest. MGF1 over the
    /// signature digest is OpenSSL's default once the digest is set, and setting it again per call
    /// would make OpenSSL fetch the digest by name each time (about 5 % of a PSS verification), so
    /// only another MGF1 digest is set.
    static func applyPadding(_ context: OpaquePointer, _ padding: RSASignaturePadding, algorithm: DigestAlgorithm) throws {
        switch padding {
        case .pkcs1v15:
            try setPadding(context, RSA_PKCS1_PADDING)
        case .pss(let saltLength, let mgf1):
            if case .bytes(let count) = saltLength, count < 0 {
                throw CryptoError.invalidArgument("EVP_PKEY_CTX_set_rsa_pss_saltlen", "a salt length cannot be negative")
            }
            try setPadding(context, RSA_PKCS1_PSS_PADDING)
            guard EVP_PKEY_CTX_set_rsa_pss_saltlen(context, saltLength.openSSLValue) == 1 else {
                throw CryptoError.openSSL("EVP_PKEY_CTX_set_rsa_pss_saltlen", "cannot use this PSS salt length")
            }
            // Only an MGF1 digest other than the signature's is set: see above.
            if let mgf1, mgf1 != algorithm {
                guard EVP_PKEY_CTX_set_rsa_mgf1_md_name(context, mgf1.openSSLName, nil) == 1 else {
                    throw CryptoError.openSSL("EVP_PKEY_CTX_set_rsa_mgf1_md_name", "cannot use MGF1 with \(mgf1.rawValue)")
                }
            }
        }
    }

    /// Runs `body` with an `EVP_MD_CTX` set up by `EVP_DigestSignInit_ex` / `EVP_DigestVerifyInit_ex`.
    private func withDigestContext<Result>(
        signing: Bool, algorithm: DigestAlgorithm, padding: RSASignaturePadding, _ body: (OpaquePointer) throws -> Result
    ) throws -> Result {
        OpenSSLErrorQueue.clear()
        guard let digestContext = EVP_MD_CTX_new() else {
            throw CryptoError.openSSL("EVP_MD_CTX_new", "out of memory")
        }
        defer { EVP_MD_CTX_free(digestContext) }
        // The EVP_PKEY_CTX set here belongs to the EVP_MD_CTX and is freed with it.
        var keyContext: OpaquePointer?
        let initialised = signing
            ? EVP_DigestSignInit(digestContext, &keyContext, algorithm.messageDigest, nil, key)
            : EVP_DigestVerifyInit(digestContext, &keyContext, algorithm.messageDigest, nil, key)
        guard initialised == 1, let keyContext else {
            throw CryptoError.openSSL(signing ? "EVP_DigestSignInit" : "EVP_DigestVerifyInit", "cannot start an RSA-\(algorithm.rawValue) signature")
        }
        try Self.applyPadding(keyContext, padding, algorithm: algorithm)
        return try body(digestContext)
    }
}
