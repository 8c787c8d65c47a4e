import ASN1Kit
import CofferErrors
import CryptoOpenSSL

extension PPKPrivateKey {
    /// Encodes `key` as a PPK file, as puttygen writes it: LF line endings, base64 at 64 columns.
    /// Unencrypted files are deterministic and byte-identical to puttygen's.
    ///
    /// - Parameters:
    ///   - comment: The `Comment:` line (`nil` writes an empty one); CR and LF become spaces.
    ///   - passphrase: `nil` or empty writes the key unencrypted (`Encryption: none`), as puttygen
    ///     does for an empty passphrase; otherwise AES-256-CBC with the version's key derivation.
    ///   - version: `.v3` (the default, PuTTY 0.75 on) or `.v2` for older PuTTY.
    ///   - argon2: The Argon2 settings of an encrypted v3 file (a fresh random 16-byte salt is
    ///     drawn from OpenSSL for each file).
    /// - Returns: The file's text, ending in a newline.
    /// - Throws: ``KeyError`` `.cannotConvert` for X25519 and X448 keys (SSH has no key type for
    ///   them) and multi-prime RSA keys (PPK holds two primes); `.invalidArgument` for Argon2
    ///   settings Argon2 rejects.
    public static func encode(_ key: PrivateKey, comment: String?, passphrase: SecureBytes?, version: Version = .v3,
                              argon2: Argon2Parameters = .default) throws -> String {
        if case .rsa(let rsa) = key, !rsa.otherPrimes.isEmpty {
            throw KeyError(.cannotConvert, "a PPK file holds an RSA key with two primes; this key has \(2 + rsa.otherPrimes.count)")
        }
        let publicKey = try key.publicKey()
        let algorithm = Array(try OpenSSHKeyType.name(for: publicKey).utf8)
        let publicBlob = try OpenSSHPublicKey.wireBlob(publicKey)
        let commentText = (comment ?? "").map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 }
        let commentBytes = Array(String(commentText).utf8)
        let encrypting = passphrase.map { !$0.isEmpty } ?? false
        let encryption = Array((encrypting ? "aes256-cbc" : "none").utf8)

        var plaintext = try PPKPrivateBlob.encode(key)
        defer { SecureMemory.zero(&plaintext) }
        var keyDerivationLines = ""
        let keys: PPKKeyDerivation
        if let passphrase, encrypting {
            // Pad to the AES block with random bytes (the MAC covers them).
            let padding = (16 - plaintext.count % 16) % 16
            plaintext += try SecureRandom.bytes(padding)
            let derivation: PPKFile.KeyDerivation
            switch version {
            case .v2:
                derivation = .sha1
            case .v3:
                let salt = try SecureRandom.bytes(saltLength)
                let variant = PPKFile.Argon2Variant(argon2.variant)
                derivation = .argon2(variant: variant, memoryKiB: argon2.memoryKiB, passes: argon2.passes, parallelism: argon2.parallelism, salt: salt)
                keyDerivationLines = """
                    Key-Derivation: \(variant.rawValue)
                    Argon2-Memory: \(argon2.memoryKiB)
                    Argon2-Passes: \(argon2.passes)
                    Argon2-Parallelism: \(argon2.parallelism)
                    Argon2-Salt: \(Hex.encode(salt))

                    """
            }
            keys = try KeyError.fromOpenSSL("PPK key derivation", code: .invalidArgument) {
                try PPKKeyDerivation.derive(derivation, passphrase: passphrase)
            }
        } else {
            keys = PPKKeyDerivation.unencrypted(version: version.rawValue)
        }

        let mac = try mac(version: version.rawValue, algorithm: algorithm, encryption: encryption, comment: commentBytes,
                          publicBlob: publicBlob, privateBlob: plaintext, key: keys.macKey)
        let privateText: String
        let storedCount = plaintext.count
        if encrypting {
            let ciphertext = try KeyError.fromOpenSSL("encrypting the PPK private key") {
                try Cipher.encrypt(.aes256CBC, key: keys.cipherKey, iv: keys.iv, plaintext, padding: false)
            }
            privateText = Base64.encode(ciphertext, lineWidth: lineWidth)
        } else {
            privateText = Base64.encode(plaintext, lineWidth: lineWidth)
        }
        let publicText = Base64.encode(publicBlob, lineWidth: lineWidth)
        var text = "PuTTY-User-Key-File-\(version.rawValue): \(String(decoding: algorithm, as: UTF8.self))\n"
        text += "Encryption: \(String(decoding: encryption, as: UTF8.self))\n"
        text += "Comment: \(String(commentText))\n"
        text += "Public-Lines: \(lineCount(publicBlob.count))\n" + publicText
        text += keyDerivationLines
        text += "Private-Lines: \(lineCount(storedCount))\n" + privateText
        text += "Private-MAC: \(Hex.encode(mac))\n"
        return text
    }

    /// The number of base64 lines `count` bytes take at 64 columns.
    private static func lineCount(_ count: Int) -> Int {
        ((count + 2) / 3 * 4 + lineWidth - 1) / lineWidth
    }
}

extension PPKFile.Argon2Variant {
    /// The header spelling of a CryptoOpenSSL ``Argon2`` variant.
    init(_ variant: Argon2.Variant) {
        switch variant {
        case .argon2id: self = .argon2id
        case .argon2i: self = .argon2i
        case .argon2d: self = .argon2d
        }
    }
}
