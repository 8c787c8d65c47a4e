/// bcrypt-pbkdf, the key derivation of encrypted OpenSSH private keys (OpenBSD's
/// `bcrypt_pbkdf(3)`), which OpenSSL does not offer.
///
/// ```
/// sha2pass = SHA-512(passphrase)
/// for block = 1, 2, …:
///     sha2salt = SHA-512(salt ‖ uint32-be(block))
///     t = out = bcryptHash(sha2pass, sha2salt)
///     repeat rounds − 1 times:
///         t = bcryptHash(sha2pass, SHA-512(t)); out ^= t
///     key[i · stride + block − 1] = out[i]          -- bytes are interleaved, not concatenated
/// bcryptHash(pass, salt):
///     state = expandState(Blowfish(), salt, pass)
///     64 times: state = expand0State(state, salt); state = expand0State(state, pass)
///     ctext = "OxychromaticBlowfishSwatDynamite" as 8 big-endian words, encrypted 64 times (ECB)
///     return ctext as 8 little-endian words
/// ```
/// where `stride = ceil(keyLength / 32)`.
///
/// The round count is not capped here: a caller reading a round count from a file checks it against
/// its own cost cap first (AsymmetricKeys' `KDFLimits`).
package enum BcryptPBKDF {
    /// The largest output bcrypt-pbkdf defines: 32 blocks of 32 bytes.
    package static let maximumKeyLength = 32 * 32

    private static let magic = Array("OxychromaticBlowfishSwatDynamite".utf8)

    /// Derives `keyLength` bytes from `passphrase` and `salt` with `rounds` rounds.
    ///
    /// - Throws: ``CryptoError`` `.invalidArgument` for an empty passphrase or salt, a salt over
    ///   1 MiB, fewer than one round, or a key length outside 1…1024.
    package static func deriveKey(passphrase: SecureBytes, salt: [UInt8], rounds: Int, keyLength: Int) throws -> SecureBytes {
        let operation = "bcrypt_pbkdf"
        guard !passphrase.isEmpty else { throw CryptoError.invalidArgument(operation, "bcrypt-pbkdf needs a non-empty passphrase") }
        guard !salt.isEmpty, salt.count <= 1 << 20 else {
            throw CryptoError.invalidArgument(operation, "bcrypt-pbkdf needs a salt of 1 byte to 1 MiB, got \(salt.count) bytes")
        }
        guard rounds >= 1 else {
            throw CryptoError.invalidArgument(operation, "bcrypt-pbkdf needs at least 1 round, got \(rounds)")
        }
        guard (1...maximumKeyLength).contains(keyLength) else {
            throw CryptoError.invalidArgument(operation, "bcrypt-pbkdf key length must be 1 to \(maximumKeyLength), got \(keyLength)")
        }
        let sha2pass = passphrase.withUnsafeBytes { SecureBytes(Digest.hash(.sha512, $0)) }
        let stride = (keyLength + 31) / 32
        let amount = (keyLength + stride - 1) / stride
        return SecureBytes(count: keyLength) { key in
            var countSalt = salt + [0, 0, 0, 0]
            var output = [UInt8](repeating: 0, count: 32)
            var roundOutput = [UInt8](repeating: 0, count: 32)
            defer {
                SecureMemory.zero(&output)
                SecureMemory.zero(&roundOutput)
            }
            var remaining = keyLength
            var block = 1
            while remaining > 0 {
                countSalt[salt.count] = UInt8(truncatingIfNeeded: block >> 24)
                countSalt[salt.count + 1] = UInt8(truncatingIfNeeded: block >> 16)
                countSalt[salt.count + 2] = UInt8(truncatingIfNeeded: block >> 8)
                countSalt[salt.count + 3] = UInt8(truncatingIfNeeded: block)
                var sha2salt = Digest.hash(.sha512, countSalt)
                sha2pass.withUnsafeBytes { hash(password: $0, salt: sha2salt, into: &roundOutput) }
                output = roundOutput
                for _ in 1..<rounds {
                    sha2salt = Digest.hash(.sha512, roundOutput)
                    sha2pass.withUnsafeBytes { hash(password: $0, salt: sha2salt, into: &roundOutput) }
                    for index in 0..<32 { output[index] ^= roundOutput[index] }
                }
                SecureMemory.zero(&sha2salt)
                var written = 0
                for index in 0..<min(amount, remaining) {
                    let destination = index * stride + block - 1
                    if destination >= keyLength { break }
                    key[destination] = output[index]
                    written += 1
                }
                remaining -= written
                block += 1
            }
        }
    }

    /// The bcrypt core of bcrypt-pbkdf over two 64-byte SHA-512 digests; writes 32 bytes.
    static func hash(password: UnsafeRawBufferPointer, salt: [UInt8], into output: inout [UInt8]) {
        var cipher = Blowfish()
        var words = [UInt32](repeating: 0, count: 8)
        salt.withUnsafeBytes { salt in
            cipher.expandState(salt: salt, key: password)
            for _ in 0..<64 {
                cipher.expandState(key: salt)
                cipher.expandState(key: password)
            }
        }
        magic.withUnsafeBytes { magic in
            var position = 0
            for index in 0..<8 { words[index] = Blowfish.streamWord(magic, &position) }
        }
        for _ in 0..<64 { cipher.encrypt(&words) }
        for (index, word) in words.enumerated() {
            output[4 * index] = UInt8(truncatingIfNeeded: word)
            output[4 * index + 1] = UInt8(truncatingIfNeeded: word >> 8)
            output[4 * index + 2] = UInt8(truncatingIfNeeded: word >> 16)
            output[4 * index + 3] = UInt8(truncatingIfNeeded: word >> 24)
        }
        words.withUnsafeMutableBytes { SecureMemory.zero($0) }
    }
}
