internal import COpenSSL

extension OpenSSLRSAKey {
    /// The longest plaintext one block can carry with `padding`: k − 2·hLen − 2 for OAEP,
    /// k − 11 for PKCS#1 v1.5, k for no padding.
    public func maxPlaintextLength(for padding: RSAEncryptionPadding) -> Int {
        max(0, blockSize - padding.overhead)
    }

    /// Encrypts one block with the public key (`EVP_PKEY_encrypt`). Longer data must be chunked
    /// by the caller.
    ///
    /// - Parameters:
    ///   - block: At most ``maxPlaintextLength(for:)`` bytes. With ``RSAEncryptionPadding/unsafeNone``
    ///     a shorter block is left-padded with zeros to k bytes and must be below the modulus.
    /// - Returns: Exactly ``blockSize`` bytes.
    /// - Throws: ``CryptoError`` `.invalidArgument` for a block that is too long, `.openSSL` on failure.
    public func encrypt(_ block: [UInt8], padding: RSAEncryptionPadding) throws -> [UInt8] {
        let operation = "EVP_PKEY_encrypt"
        let limit = maxPlaintextLength(for: padding)
        guard block.count <= limit else {
            throw CryptoError.invalidArgument(operation, "a \(bits)-bit key encrypts at most \(limit) bytes per block with this padding, got \(block.count)")
        }
        var input = block
        if padding == .unsafeNone && input.count < blockSize {
            input = [UInt8](repeating: 0, count: blockSize - input.count) + input
        }
        return try blockOperation(operation, input, failure: .openSSL, initialize: { EVP_PKEY_encrypt_init($0) },
                                  configure: { try Self.configure($0, padding) }, perform: { EVP_PKEY_encrypt($0, $1, $2, $3, $4) })
    }

    /// Decrypts one block with the private key (`EVP_PKEY_decrypt`).
    ///
    /// - Parameter block: The ciphertext, at most ``blockSize`` bytes (normally exactly k).
    /// - Throws: ``CryptoError`` `.badDecrypt` when the padding does not check out — a wrong key or
    ///   damaged data; `.invalidArgument` for a public key or an oversized block.
    ///
    /// With ``RSAEncryptionPadding/pkcs1`` the distinction between a padding failure and success
    /// can serve as a Bleichenbacher oracle: OpenSSL 3.0 (this build: 3.0.x) has no implicit
    /// rejection (`OSSL_PKEY_PARAM_IMPLICIT_REJECTION` arrived in 3.2), so do not expose the
    /// failure reason to remote parties.
    public func decrypt(_ block: [UInt8], padding: RSAEncryptionPadding) throws -> [UInt8] {
        let operation = "EVP_PKEY_decrypt"
        try requirePrivate(operation)
        guard !block.isEmpty, block.count <= blockSize else {
            throw CryptoError.invalidArgument(operation, "a \(bits)-bit key decrypts blocks of \(blockSize) bytes, got \(block.count)")
        }
        return try blockOperation(operation, block, failure: .badDecrypt, initialize: { EVP_PKEY_decrypt_init($0) },
                                  configure: { try Self.configure($0, padding) }, perform: { EVP_PKEY_decrypt($0, $1, $2, $3, $4) })
    }

    /// Applies an encryption padding to a fresh encrypt or decrypt context.
    static func configure(_ context: OpaquePointer, _ padding: RSAEncryptionPadding) throws {
        switch padding {
        case .pkcs1:
            try setPadding(context, RSA_PKCS1_PADDING)
        case .unsafeNone:
            try setPadding(context, RSA_NO_PADDING)
        case .oaep(let digest, let mgf1, let label):
            try setPadding(context, RSA_PKCS1_OAEP_PADDING)
            guard EVP_PKEY_CTX_set_rsa_oaep_md(context, digest.messageDigest) == 1 else {
                throw CryptoError.openSSL("EVP_PKEY_CTX_set_rsa_oaep_md", "cannot use \(digest.rawValue) for OAEP")
            }
            guard EVP_PKEY_CTX_set_rsa_mgf1_md(context, mgf1.messageDigest) == 1 else {
                throw CryptoError.openSSL("EVP_PKEY_CTX_set_rsa_mgf1_md", "cannot use \(mgf1.rawValue) for MGF1")
            }
            if let label, !label.isEmpty {
                // OpenSSL takes ownership of the label, which must come from its allocator.
                guard let copy = label.withUnsafeBytes({ CRYPTO_memdup($0.baseAddress, $0.count, #fileID, #line) }) else {
                    throw CryptoError.openSSL("CRYPTO_memdup", "out of memory")
                }
                guard EVP_PKEY_CTX_set0_rsa_oaep_label(context, copy, Int32(label.count)) == 1 else {
                    CRYPTO_free(copy, #fileID, #line)
                    throw CryptoError.openSSL("EVP_PKEY_CTX_set0_rsa_oaep_label", "cannot set the OAEP label")
                }
            }
        }
    }

    static func setPadding(_ context: OpaquePointer, _ mode: Int32) throws {
        guard EVP_PKEY_CTX_set_rsa_padding(context, mode) == 1 else {
            throw CryptoError.openSSL("EVP_PKEY_CTX_set_rsa_padding", "cannot use RSA padding mode \(mode)")
        }
    }

    /// One `EVP_PKEY_*` block operation on a fresh context: `initialize` it (`EVP_PKEY_*_init`,
    /// reported as `operation_init`), `configure` it, then `perform` it over `input` into a buffer of
    /// ``blockSize`` bytes.
    func blockOperation(
        _ operation: String, _ input: [UInt8], failure: CryptoError.Code,
        initialize: (OpaquePointer) -> Int32, configure: (OpaquePointer) throws -> Void,
        perform: (OpaquePointer, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>, UnsafePointer<UInt8>?, Int) -> Int32
    ) throws -> [UInt8] {
        try withOperationContext { context in
            guard initialize(context) == 1 else { throw CryptoError.openSSL(operation + "_init") }
            try configure(context)
            return try Self.run(operation, context, input, outputCapacity: blockSize, failure: failure) { out, outLength, inPointer, inLength in
                perform(context, out, outLength, inPointer, inLength)
            }
        }
    }

    /// Calls a one-shot `EVP_PKEY_*` operation with `input` into a buffer of `outputCapacity`
    /// bytes, and returns what it wrote.
    static func run(
        _ operation: String, _ context: OpaquePointer, _ input: [UInt8], outputCapacity: Int, failure: CryptoError.Code,
        _ call: (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>, UnsafePointer<UInt8>?, Int) -> Int32
    ) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: outputCapacity)
        var length = outputCapacity
        let status = input.withUnsafeBufferPointer { inBytes in
            output.withUnsafeMutableBufferPointer { outBytes in
                call(outBytes.baseAddress, &length, inBytes.baseAddress, inBytes.count)
            }
        }
        guard status == 1 else {
            let reason = failure == .badDecrypt
                ? "decryption failed: wrong key or padding, or damaged data"
                : "the RSA operation failed"
            throw CryptoError.openSSL(operation, reason, code: failure)
        }
        output.removeLast(output.count - length)
        return output
    }
}
