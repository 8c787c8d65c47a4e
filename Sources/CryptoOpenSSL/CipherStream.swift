internal import COpenSSL

/// A streaming symmetric encryption or decryption over one `EVP_CIPHER_CTX`: feed data with
/// `update`, end with ``finish()``. For GCM, give the additional authenticated data with
/// ``setAAD(_:)`` before any `update`, the expected tag with ``setExpectedTag(_:)`` before
/// ``finish()`` when decrypting, and read ``tag(length:)`` after ``finish()`` when encrypting.
///
/// Not `Sendable`: one stream belongs to one task at a time.
public final class CipherStream {
    /// The cipher in use.
    public let cipher: SymmetricCipher
    /// Whether this stream decrypts.
    public let isDecrypting: Bool
    private let context: OpaquePointer
    private var isFinished = false
    private var hasData = false

    /// The largest length handed to one `EVP_CipherUpdate` call (its length is an `int`).
    private static let maximumChunk = 1 << 30

    /// Sets up a stream (`EVP_CipherInit_ex2`, `EVP_CIPHER_CTX_set_padding`).
    ///
    /// - Parameters:
    ///   - cipher: The cipher; single DES loads OpenSSL's legacy provider on first use.
    ///   - key: Exactly `cipher.keySize` bytes.
    ///   - iv: `cipher.ivSize` bytes; empty for ECB; for GCM any length from 1 to 128 bytes.
    ///   - decrypting: `true` to decrypt, `false` to encrypt.
    ///   - padding: PKCS#7 padding for the block modes (CBC, ECB, DES); ignored by stream modes.
    /// - Throws: ``CryptoError`` `.invalidArgument` for a wrong key or IV length, `.unsupported`
    ///   when the cipher is not available, `.openSSL` when OpenSSL refuses to initialise.
    public init(cipher: SymmetricCipher, key: some ByteSource, iv: [UInt8], decrypting: Bool, padding: Bool = true) throws {
        let operation = "EVP_CipherInit_ex2"
        guard key.count == cipher.keySize else {
            throw CryptoError.invalidArgument(operation, "\(cipher.rawValue) needs a \(cipher.keySize)-byte key, got \(key.count) bytes")
        }
        if cipher.isAuthenticated {
            guard (1...128).contains(iv.count) else {
                throw CryptoError.invalidArgument(operation, "\(cipher.rawValue) needs an IV of 1 to 128 bytes, got \(iv.count)")
            }
        } else if iv.count != cipher.ivSize {
            throw CryptoError.invalidArgument(operation, "\(cipher.rawValue) needs a \(cipher.ivSize)-byte IV, got \(iv.count) bytes")
        }
        let evpCipher = try FetchedCiphers.shared.cipher(cipher)
        OpenSSLErrorQueue.clear()
        guard let context = EVP_CIPHER_CTX_new() else {
            throw CryptoError.openSSL("EVP_CIPHER_CTX_new", "out of memory")
        }
        self.context = context
        self.cipher = cipher
        self.isDecrypting = decrypting
        let direction: Int32 = decrypting ? 0 : 1
        guard EVP_CipherInit_ex2(context, evpCipher, nil, nil, direction, nil) == 1 else {
            throw CryptoError.openSSL(operation, "cannot set up \(cipher.rawValue)")
        }
        if cipher.isAuthenticated && iv.count != cipher.ivSize {
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(iv.count), nil) == 1 else {
                throw CryptoError.openSSL("EVP_CIPHER_CTX_ctrl", "cannot set a \(iv.count)-byte GCM IV")
            }
        }
        let keyed = key.withUnsafeBytes { keyBytes in
            iv.withUnsafeBufferPointer { ivBytes in
                EVP_CipherInit_ex2(context, nil, keyBytes.bindMemory(to: UInt8.self).baseAddress, iv.isEmpty ? nil : ivBytes.baseAddress, direction, nil)
            }
        }
        guard keyed == 1 else {
            throw CryptoError.openSSL(operation, "cannot set the \(cipher.rawValue) key and IV")
        }
        guard EVP_CIPHER_CTX_set_padding(context, padding ? 1 : 0) == 1 else {
            throw CryptoError.openSSL("EVP_CIPHER_CTX_set_padding", "cannot set padding")
        }
    }

    deinit {
        // EVP_CIPHER_CTX_free cleanses the key schedule.
        EVP_CIPHER_CTX_free(context)
    }

    /// The output room `update` needs for `inputCount` input bytes.
    public func outputCapacity(forInputCount inputCount: Int) -> Int {
        inputCount + (cipher.blockSize > 1 ? cipher.blockSize : 0)
    }

    /// Processes `input`, writing the output into `output`, and returns the number of bytes
    /// written (`EVP_CipherUpdate`). Block modes may hold back up to a block until later.
    ///
    /// - Parameter output: At least ``outputCapacity(forInputCount:)`` bytes; it may be the same
    ///   memory as `input` for the stream modes.
    /// - Throws: ``CryptoError`` `.invalidArgument` when `output` is too small or the stream is
    ///   finished, `.openSSL` when OpenSSL fails.
    public func update(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws -> Int {
        try checkOpen("EVP_CipherUpdate")
        guard output.count >= outputCapacity(forInputCount: input.count) else {
            throw CryptoError.invalidArgument("EVP_CipherUpdate", "output buffer of \(output.count) bytes is too small for \(input.count) input bytes")
        }
        guard let inputBase = input.baseAddress, !input.isEmpty else { return 0 }
        let outputBase = output.baseAddress!
        hasData = true
        var consumed = 0
        var produced = 0
        while consumed < input.count {
            let chunk = min(input.count - consumed, Self.maximumChunk)
            var written: Int32 = 0
            let ok = EVP_CipherUpdate(
                context,
                (outputBase + produced).assumingMemoryBound(to: UInt8.self), &written,
                (inputBase + consumed).assumingMemoryBound(to: UInt8.self), Int32(chunk)
            )
            guard ok == 1 else {
                throw CryptoError.openSSL("EVP_CipherUpdate", "\(cipher.rawValue) update failed")
            }
            consumed += chunk
            produced += Int(written)
        }
        return produced
    }

    /// Processes `bytes` and returns the output produced so far (`EVP_CipherUpdate`).
    ///
    /// - Throws: ``CryptoError`` as ``update(_:into:)`` does.
    public func update(_ bytes: some ByteSource) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: outputCapacity(forInputCount: bytes.count))
        let written = try bytes.withUnsafeBytes { input in
            try output.withUnsafeMutableBytes { try update(input, into: $0) }
        }
        output.removeLast(output.count - written)
        return output
    }

    /// Ends the stream and returns the last bytes: the padded final block when encrypting, the
    /// unpadded rest when decrypting (`EVP_CipherFinal_ex`). For GCM decryption this checks the tag.
    ///
    /// - Throws: ``CryptoError`` `.badDecrypt` for bad padding (usually a wrong key or passphrase),
    ///   `.authenticationFailed` for a GCM tag mismatch, `.invalidArgument` for a plaintext that is
    ///   not a whole number of blocks without padding, or a stream already finished.
    public func finish() throws -> [UInt8] {
        let operation = "EVP_CipherFinal_ex"
        try checkOpen(operation)
        isFinished = true
        var output = [UInt8](repeating: 0, count: max(cipher.blockSize, 16))
        var written: Int32 = 0
        let ok = output.withUnsafeMutableBufferPointer { EVP_CipherFinal_ex(context, $0.baseAddress, &written) }
        guard ok == 1 else {
            if cipher.isAuthenticated && isDecrypting {
                throw CryptoError.openSSL(operation, "GCM authentication failed: wrong key, IV, tag or AAD, or tampered data", code: .authenticationFailed)
            }
            if isDecrypting {
                throw CryptoError.openSSL(operation, "bad decrypt: wrong key or passphrase, or damaged data", code: .badDecrypt)
            }
            throw CryptoError.openSSL(operation, "\(cipher.rawValue) cannot finish: without padding the input must be a whole number of \(cipher.blockSize)-byte blocks", code: .invalidArgument)
        }
        output.removeLast(output.count - Int(written))
        return output
    }

    /// Supplies additional authenticated data for GCM; call before any `update`.
    ///
    /// - Throws: ``CryptoError`` `.invalidArgument` for a non-GCM cipher or after data was processed.
    public func setAAD(_ aad: [UInt8]) throws {
        let operation = "EVP_CipherUpdate"
        try checkOpen(operation)
        guard cipher.isAuthenticated else {
            throw CryptoError.invalidArgument(operation, "\(cipher.rawValue) takes no additional authenticated data")
        }
        guard !hasData else {
            throw CryptoError.invalidArgument(operation, "additional authenticated data must come before the data")
        }
        guard !aad.isEmpty else { return }
        var written: Int32 = 0
        let ok = aad.withUnsafeBufferPointer { EVP_CipherUpdate(context, nil, &written, $0.baseAddress, Int32($0.count)) }
        guard ok == 1 else {
            throw CryptoError.openSSL(operation, "cannot add GCM additional authenticated data")
        }
    }

    /// Sets the tag a GCM decryption must reproduce; call before ``finish()``.
    ///
    /// - Parameter tag: 4 to 16 bytes.
    /// - Throws: ``CryptoError`` `.invalidArgument` when not decrypting GCM or for a bad tag length.
    public func setExpectedTag(_ tag: [UInt8]) throws {
        let operation = "EVP_CIPHER_CTX_ctrl"
        try checkOpen(operation)
        guard cipher.isAuthenticated, isDecrypting else {
            throw CryptoError.invalidArgument(operation, "an expected tag applies to GCM decryption only")
        }
        guard (4...16).contains(tag.count) else {
            throw CryptoError.invalidArgument(operation, "a GCM tag has 4 to 16 bytes, got \(tag.count)")
        }
        var copy = tag
        let ok = copy.withUnsafeMutableBytes { EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32($0.count), $0.baseAddress) }
        guard ok == 1 else {
            throw CryptoError.openSSL(operation, "cannot set the expected GCM tag")
        }
    }

    /// The GCM tag of an encryption; call after ``finish()``.
    ///
    /// - Parameter length: 4 to 16 bytes; the tag is truncated to it.
    /// - Throws: ``CryptoError`` `.invalidArgument` when not encrypting GCM, before ``finish()``,
    ///   or for a bad length.
    public func tag(length: Int = 16) throws -> [UInt8] {
        let operation = "EVP_CIPHER_CTX_ctrl"
        guard cipher.isAuthenticated, !isDecrypting else {
            throw CryptoError.invalidArgument(operation, "a tag is produced by GCM encryption only")
        }
        guard isFinished else {
            throw CryptoError.invalidArgument(operation, "the tag is known only after finish()")
        }
        guard (4...16).contains(length) else {
            throw CryptoError.invalidArgument(operation, "a GCM tag has 4 to 16 bytes, got \(length)")
        }
        var tag = [UInt8](repeating: 0, count: length)
        let ok = tag.withUnsafeMutableBytes { EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(length), $0.baseAddress) }
        guard ok == 1 else {
            throw CryptoError.openSSL(operation, "cannot read the GCM tag")
        }
        return tag
    }

    private func checkOpen(_ operation: String) throws {
        guard !isFinished else {
            throw CryptoError.invalidArgument(operation, "the cipher stream is already finished")
        }
    }
}
