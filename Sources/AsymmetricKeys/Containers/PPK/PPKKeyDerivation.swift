import CryptoOpenSSL

/// The keys a PPK file's passphrase gives: the AES-256-CBC key and IV for the private blob and
/// the MAC key.
///
/// ```
/// v2 (PuTTY 0.52–0.74):
///     cipher key = (SHA-1(uint32 0 ‖ passphrase) ‖ SHA-1(uint32 1 ‖ passphrase))[0..<32]
///     IV         = 16 zero bytes
///     MAC key    = SHA-1("putty-private-key-file-mac-key" ‖ passphrase)   (empty passphrase when
///                  unencrypted); the MAC is HMAC-SHA-1
/// v3 (PuTTY 0.75 on):
///     Argon2(passphrase, salt, memory, passes, parallelism) → 80 bytes:
///     cipher key = bytes 0..<32, IV = bytes 32..<48, MAC key = bytes 48..<80
///     unencrypted: the MAC key is empty; the MAC is HMAC-SHA-256
/// ```
struct PPKKeyDerivation {
    /// The AES-256-CBC key and IV (empty when unencrypted) and the MAC key, in wiped storage.
    var cipherKey: SecureBytes
    var iv: [UInt8]
    var macKey: SecureBytes

    private static let macKeyLabel = Array("putty-private-key-file-mac-key".utf8)

    /// The keys of an unencrypted file of `version`.
    static func unencrypted(version: Int) -> PPKKeyDerivation {
        if version == 2 {
            return PPKKeyDerivation(cipherKey: SecureBytes([]), iv: [], macKey: SecureBytes(Digest.hash(.sha1, macKeyLabel)))
        }
        return PPKKeyDerivation(cipherKey: SecureBytes([]), iv: [], macKey: SecureBytes([]))
    }

    /// Derives the keys of an encrypted file.
    ///
    /// - Throws: ``KeyError`` `.operationFailed` when Argon2 fails (memory allocation); the costs
    ///   were checked when the file was parsed.
    static func derive(_ derivation: PPKFile.KeyDerivation, passphrase: SecureBytes) throws -> PPKKeyDerivation {
        switch derivation {
        case .sha1:
            let cipherKey = SecureBytes(count: 32) { out in
                var first = sha1(prefix: [0, 0, 0, 0], passphrase)
                var second = sha1(prefix: [0, 0, 0, 1], passphrase)
                defer {
                    SecureMemory.zero(&first)
                    SecureMemory.zero(&second)
                }
                out.copyBytes(from: first)
                UnsafeMutableRawBufferPointer(rebasing: out[20...]).copyBytes(from: second.prefix(12))
            }
            var macKey = sha1(prefix: macKeyLabel, passphrase)
            defer { SecureMemory.zero(&macKey) }
            return PPKKeyDerivation(cipherKey: cipherKey, iv: [UInt8](repeating: 0, count: 16), macKey: SecureBytes(macKey))
        case .argon2(let variant, let memoryKiB, let passes, let parallelism, let salt):
            let output = try KeyError.fromOpenSSL("PPK Argon2 key derivation") {
                try Argon2.derive(variant.argon2, password: passphrase, salt: salt, memoryKiB: memoryKiB,
                                  passes: passes, parallelism: parallelism, length: 80)
            }
            return output.withUnsafeBytes { bytes in
                PPKKeyDerivation(cipherKey: SecureBytes(copying: UnsafeRawBufferPointer(rebasing: bytes[0..<32])),
                                 iv: Array(bytes[32..<48]),
                                 macKey: SecureBytes(copying: UnsafeRawBufferPointer(rebasing: bytes[48..<80])))
            }
        }
    }

    /// SHA-1(`prefix` ‖ `passphrase`), hashed from wiped storage.
    private static func sha1(prefix: [UInt8], _ passphrase: SecureBytes) -> [UInt8] {
        let preimage = SecureBytes(count: prefix.count + passphrase.count) { out in
            out.copyBytes(from: prefix)
            passphrase.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[prefix.count...]).copyMemory(from: $0) }
        }
        return preimage.withUnsafeBytes { Digest.hash(.sha1, $0) }
    }
}

extension PPKFile.Argon2Variant {
    /// The variant of CryptoOpenSSL's ``Argon2``.
    var argon2: Argon2.Variant {
        switch self {
        case .argon2id: .argon2id
        case .argon2i: .argon2i
        case .argon2d: .argon2d
        }
    }
}
