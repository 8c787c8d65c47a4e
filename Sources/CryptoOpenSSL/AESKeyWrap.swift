internal import COpenSSL

/// The AES Key Wrap algorithm (RFC 3394, NIST SP 800-38F "KW") with its default initial value
/// A6A6A6A6A6A6A6A6, over OpenSSL's `AES-128-WRAP`, `AES-192-WRAP` and `AES-256-WRAP` ciphers.
///
/// JWE's `A128KW`, `A192KW` and `A256KW` key management (RFC 7518 §4.4) and the `+A…KW` steps of
/// ECDH-ES and PBES2 wrap the content encryption key with it.
///
/// ```
/// Inputs:  plaintext, n 64-bit values {P1, P2, ..., Pn} (n ≥ 2), and the key encryption key K
/// Outputs: ciphertext, (n+1) 64-bit values {C0, C1, ..., Cn}
/// ```
///
/// The key encryption key picks the cipher by its length: 16, 24 or 32 bytes.
public enum AESKeyWrap {
    /// The initial value RFC 3394 §2.2.3.1 prescribes, which unwrapping checks.
    static let defaultInitialValue: [UInt8] = [0xA6, 0xA6, 0xA6, 0xA6, 0xA6, 0xA6, 0xA6, 0xA6]

    /// Wraps `keyData` under the key encryption key `kek` (`EVP_CipherUpdate` with
    /// `AES-*-WRAP`).
    ///
    /// - Parameters:
    ///   - keyData: The key to wrap: a multiple of 8 bytes, at least 16.
    ///   - kek: The key encryption key: 16, 24 or 32 bytes.
    /// - Returns: The wrapped key, 8 bytes longer than `keyData`.
    /// - Throws: ``CryptoError`` `.invalidArgument` for a wrong KEK or key data length,
    ///   `.unsupported` when OpenSSL lacks the cipher, `.openSSL` when OpenSSL fails.
    public static func wrap(_ keyData: some ByteSource, kek: some ByteSource) throws -> [UInt8] {
        let operation = "EVP_CipherUpdate"
        guard keyData.count >= 16, keyData.count % 8 == 0 else {
            throw CryptoError.invalidArgument(operation, "AES Key Wrap wraps a multiple of 8 bytes, at least 16; got \(keyData.count)")
        }
        var output = [UInt8](repeating: 0, count: keyData.count + 8)
        let written = try keyData.withUnsafeBytes { input in
            try output.withUnsafeMutableBytes { out in
                try run(kek: kek, decrypting: false, input: input, output: out)
            }
        }
        guard written == output.count else {
            throw CryptoError.openSSL(operation, "AES Key Wrap wrote \(written) bytes, expected \(output.count)")
        }
        return output
    }

    /// Unwraps `wrappedKey` under `kek` and checks its integrity (the initial value).
    ///
    /// - Parameters:
    ///   - wrappedKey: The wrapped key: a multiple of 8 bytes, at least 24.
    ///   - kek: The key encryption key: 16, 24 or 32 bytes.
    /// - Returns: The key, 8 bytes shorter than `wrappedKey`, in wiped storage.
    /// - Throws: ``CryptoError`` `.authenticationFailed` when the integrity check fails (a wrong
    ///   KEK or altered data); `.invalidArgument` for wrong lengths; `.unsupported`, `.openSSL`.
    public static func unwrap(_ wrappedKey: [UInt8], kek: some ByteSource) throws -> SecureBytes {
        let operation = "EVP_CipherUpdate"
        guard wrappedKey.count >= 24, wrappedKey.count % 8 == 0 else {
            throw CryptoError.invalidArgument(operation, "an AES-wrapped key is a multiple of 8 bytes, at least 24; got \(wrappedKey.count)")
        }
        // OpenSSL's unwrap writes the whole block before it checks the initial value, so the
        // output gets room for the wrapped length, in wiped storage.
        var unwrappedLength = 0
        let scratch = try SecureBytes(count: wrappedKey.count) { out in
            unwrappedLength = try wrappedKey.withUnsafeBytes { input in
                try run(kek: kek, decrypting: true, input: input, output: out)
            }
        }
        guard unwrappedLength == wrappedKey.count - 8 else {
            throw CryptoError.openSSL(operation, "AES Key Unwrap wrote \(unwrappedLength) bytes, expected \(wrappedKey.count - 8)")
        }
        return scratch.withUnsafeBytes { SecureBytes(copying: UnsafeRawBufferPointer(rebasing: $0[0..<unwrappedLength])) }
    }

    /// The OpenSSL cipher name for a key encryption key of `length` bytes.
    static func cipherName(kekLength length: Int) throws -> String {
        switch length {
        case 16: return "AES-128-WRAP"
        case 24: return "AES-192-WRAP"
        case 32: return "AES-256-WRAP"
        default:
            throw CryptoError.invalidArgument("EVP_CipherInit_ex2", "an AES Key Wrap key has 16, 24 or 32 bytes, got \(length)")
        }
    }

    /// One wrap or unwrap on a fresh `EVP_CIPHER_CTX`; returns the bytes written.
    private static func run(
        kek: some ByteSource, decrypting: Bool, input: UnsafeRawBufferPointer, output: UnsafeMutableRawBufferPointer
    ) throws -> Int {
        let evpCipher = try FetchedCiphers.shared.cipher(named: cipherName(kekLength: kek.count))
        OpenSSLErrorQueue.clear()
        guard let context = EVP_CIPHER_CTX_new() else {
            throw CryptoError.openSSL("EVP_CIPHER_CTX_new", "out of memory")
        }
        // EVP_CIPHER_CTX_free cleanses the key schedule.
        defer { EVP_CIPHER_CTX_free(context) }
        // OpenSSL refuses wrap mode unless asked for it: the flag guards callers that treat every
        // cipher alike from a mode whose output is longer than its input. (OpenSSL 3 checks it
        // only for legacy EVP_CIPHERs; set it anyway so both paths behave the same.)
        EVP_CIPHER_CTX_set_flags(context, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW)
        let direction: Int32 = decrypting ? 0 : 1
        // No IV: the cipher uses RFC 3394's default initial value A6A6A6A6A6A6A6A6.
        let keyed = kek.withUnsafeBytes { keyBytes in
            EVP_CipherInit_ex2(context, evpCipher, keyBytes.bindMemory(to: UInt8.self).baseAddress, nil, direction, nil)
        }
        guard keyed == 1 else {
            throw CryptoError.openSSL("EVP_CipherInit_ex2", "cannot set up AES Key Wrap")
        }
        var written: Int32 = 0
        let status = EVP_CipherUpdate(
            context, output.bindMemory(to: UInt8.self).baseAddress, &written,
            input.bindMemory(to: UInt8.self).baseAddress, Int32(input.count))
        guard status == 1, written >= 0 else {
            if decrypting {
                throw CryptoError.openSSL("EVP_CipherUpdate", "AES Key Unwrap integrity check failed: wrong key encryption key, or altered data", code: .authenticationFailed)
            }
            throw CryptoError.openSSL("EVP_CipherUpdate", "AES Key Wrap failed")
        }
        return Int(written)
    }
}
