import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// OpenSSL's legacy PEM encryption (RFC 1421 headers), as `openssl rsa -aes256` writes it:
///
/// ```
/// -----BEGIN RSA PRIVATE KEY-----
/// Proc-Type: 4,ENCRYPTED
/// DEK-Info: AES-256-CBC,<IV in hex>
///
/// <base64 of the CBC-encrypted PKCS#1 DER, PKCS#7 padded>
/// -----END RSA PRIVATE KEY-----
/// ```
/// The key is `EVP_BytesToKey(MD5, passphrase, salt = the first 8 bytes of the IV, 1 round)`.
/// Ciphers: AES-128/192/256-CBC, DES-EDE3-CBC, DES-CBC.
public enum LegacyPEMEncryption {
    /// The ciphers a DEK-Info header may name, by their header spelling.
    static let ciphers: [String: SymmetricCipher] = [
        "AES-128-CBC": .aes128CBC, "AES-192-CBC": .aes192CBC, "AES-256-CBC": .aes256CBC,
        "DES-EDE3-CBC": .desEDE3CBC, "DES-CBC": .desCBC,
    ]

    /// Whether `block` carries `Proc-Type: 4,ENCRYPTED`.
    public static func isEncrypted(_ block: PEMBlock) -> Bool {
        guard let procType = block.header("Proc-Type") else { return false }
        return procType.split(separator: ",").dropFirst().first.map { $0.trimmingSpaces == "ENCRYPTED" } ?? false
    }

    /// Parses the DEK-Info header: the cipher and its IV.
    ///
    /// - Throws: ``KeyError`` `.malformed` for a missing or bad header (naming the block offset),
    ///   `.unsupportedEncryption` for another cipher.
    static func dekInfo(_ block: PEMBlock) throws -> (cipher: SymmetricCipher, iv: [UInt8]) {
        guard let dekInfo = block.header("DEK-Info") else {
            throw KeyError(.malformed, "encrypted PEM block at offset \(block.offset) has no DEK-Info header", offset: block.offset)
        }
        let parts = dekInfo.split(separator: ",", maxSplits: 1).map { String($0).trimmingSpaces }
        guard parts.count == 2 else {
            throw KeyError(.malformed, "DEK-Info header of the PEM block at offset \(block.offset) is not 'CIPHER,IV'", offset: block.offset)
        }
        guard let cipher = ciphers[parts[0].uppercased()] else {
            throw KeyError(.unsupportedEncryption, "DEK-Info cipher '\(parts[0].prefix(40))' of the PEM block at offset \(block.offset) is not supported (AES-128/192/256-CBC, DES-EDE3-CBC, DES-CBC are)",
                              offset: block.offset)
        }
        guard let iv = Hex.decode(parts[1]), iv.count == cipher.ivSize else {
            throw KeyError(.malformed, "DEK-Info IV of the PEM block at offset \(block.offset) is not \(cipher.ivSize) bytes of hex", offset: block.offset)
        }
        return (cipher, iv)
    }

    /// Reads how the block is encrypted, without a passphrase.
    public static func encryptionInfo(_ block: PEMBlock) throws -> KeyEncryptionInfo {
        let (cipher, _) = try dekInfo(block)
        return KeyEncryptionInfo(cipher: PBEAlgorithm.cipherName(cipher), kdf: "evp-bytestokey-md5")
    }

    /// Decrypts the body of an encrypted PEM block; the result is the DER it protects, in wiped storage.
    ///
    /// - Throws: ``KeyError`` `.wrongPassphrase` when the padding is wrong; `.malformed`,
    ///   `.unsupportedEncryption` for bad headers.
    public static func decrypt(_ block: PEMBlock, passphrase: SecureBytes) throws -> SecureBytes {
        let (cipher, iv) = try dekInfo(block)
        guard !block.bytes.isEmpty, block.bytes.count % cipher.blockSize == 0 else {
            throw KeyError(.malformed, "encrypted PEM body at offset \(block.offset) is \(block.bytes.count) bytes, not a whole number of \(cipher.blockSize)-byte blocks",
                              offset: block.offset)
        }
        do {
            var (key, _) = try KDF.evpBytesToKey(digest: .md5, password: passphrase, salt: Array(iv[0..<8]), keyLength: cipher.keySize, ivLength: 0)
            defer { SecureMemory.zero(&key) }
            var plaintext = try Cipher.decrypt(cipher, key: key, iv: iv, block.bytes)
            defer { SecureMemory.zero(&plaintext) }
            return SecureBytes(plaintext)
        } catch let error as CryptoError where error.code == .badDecrypt {
            throw KeyError.wrongPassphrase("encrypted PEM key", cause: error)
        } catch let error as CryptoError where error.code == .unsupported {
            throw KeyError(.unsupportedEncryption, "\(PBEAlgorithm.cipherName(cipher)) is not available in this OpenSSL: \(error.reason)", cause: error)
        } catch let error as CryptoError {
            throw KeyError(.operationFailed, "decrypting the PEM key failed: \(error.reason)", cause: error)
        }
    }

    /// Encrypts `der` into a PEM block with `label`, a random IV and the headers OpenSSL writes.
    ///
    /// - Throws: ``KeyError`` `.invalidArgument` for a cipher legacy PEM cannot name.
    public static func encrypt(_ der: SecureBytes, label: String, passphrase: SecureBytes, cipher: SymmetricCipher = .aes256CBC) throws -> PEMBlock {
        guard let name = ciphers.first(where: { $0.value == cipher })?.key else {
            throw KeyError(.invalidArgument, "legacy PEM encryption cannot use \(PBEAlgorithm.cipherName(cipher)) (aes-128-cbc, aes-192-cbc, aes-256-cbc, des-ede3-cbc, des-cbc can)")
        }
        return try KeyError.fromOpenSSL("encrypting the PEM key failed") {
            let iv = try SecureRandom.bytes(cipher.ivSize)
            var (key, _) = try KDF.evpBytesToKey(digest: .md5, password: passphrase, salt: Array(iv[0..<8]), keyLength: cipher.keySize, ivLength: 0)
            defer { SecureMemory.zero(&key) }
            let body = try Cipher.encrypt(cipher, key: key, iv: iv, der)
            return PEMBlock(label: label, headers: [
                PEMBlock.Header(name: "Proc-Type", value: "4,ENCRYPTED"),
                PEMBlock.Header(name: "DEK-Info", value: "\(name),\(Hex.encode(iv).uppercased())"),
            ], bytes: body)
        }
    }
}

fileprivate extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let scalars = unicodeScalars.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
        return String(String.UnicodeScalarView(scalars))
    }
}
