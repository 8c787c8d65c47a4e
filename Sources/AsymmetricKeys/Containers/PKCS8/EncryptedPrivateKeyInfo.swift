import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// PKCS#8 `EncryptedPrivateKeyInfo`, the `ENCRYPTED PRIVATE KEY` container (RFC 5958 §3, RFC 8018).
///
/// ```
/// EncryptedPrivateKeyInfo ::= SEQUENCE {
///     encryptionAlgorithm  EncryptionAlgorithmIdentifier,   -- PBES2, or PBES1 (read-only)
///     encryptedData        EncryptedData }                  -- OCTET STRING
/// ```
public enum EncryptedPrivateKeyInfo {
    /// How the key is derived from the passphrase when writing.
    public enum KeyDerivation: Sendable, Hashable {
        /// PBKDF2 with HMAC-`prf` (`openssl pkcs8 -topk8 -v2 … -v2prf hmacWithSHA256 -iter N`).
        case pbkdf2(iterations: Int, prf: DigestAlgorithm)
        /// scrypt with cost `n`, block size `r` and parallelization `p` (`openssl pkcs8 -scrypt`).
        case scrypt(n: UInt64, r: UInt64, p: UInt64)

        /// OpenSSL's default: PBKDF2-HMAC-SHA256 with 2048 iterations.
        public static let `default` = KeyDerivation.pbkdf2(iterations: 2048, prf: .sha256)
    }

    /// The parts of an EncryptedPrivateKeyInfo, parsed but not decrypted.
    package struct Parts {
        package var algorithm: PBEAlgorithm
        package var encryptedData: ArraySlice<UInt8>
        package var dataOffset: Int
    }

    /// Parses the structure without decrypting it.
    package static func parse(_ der: ArraySlice<UInt8>) throws -> Parts {
        var reader = DERReader(der)
        do {
            let parts = try reader.readSequence { seq in
                let algorithm = try PBEAlgorithm.read(from: &seq)
                let offset = seq.offset
                let data = try seq.readOctetString()
                return Parts(algorithm: algorithm, encryptedData: data, dataOffset: offset)
            }
            try reader.finish()
            let block = parts.algorithm.cipher.blockSize
            guard !parts.encryptedData.isEmpty, parts.encryptedData.count % block == 0 else {
                throw KeyError(.malformed, "EncryptedPrivateKeyInfo: the encrypted data at offset \(parts.dataOffset) is \(parts.encryptedData.count) bytes, not a whole number of \(block)-byte blocks",
                                  offset: parts.dataOffset)
            }
            return parts
        } catch let error as ASN1Error {
            throw KeyError.malformed("EncryptedPrivateKeyInfo", error)
        }
    }

    /// Reads how the key is encrypted, without a passphrase.
    ///
    /// - Throws: ``KeyError`` `.malformed` with the byte offset, `.unsupportedEncryption` for
    ///   schemes, KDFs, PRFs or ciphers Coffer does not support.
    public static func encryptionInfo(_ der: ArraySlice<UInt8>) throws -> KeyEncryptionInfo {
        try parse(der).algorithm.info
    }

    /// How much work deriving the key costs, without doing it: the iteration count for PBKDF2 and
    /// PBES1, N·r·p for scrypt. Lets callers (fuzzers, servers) refuse expensive files up front.
    ///
    /// - Throws: as ``encryptionInfo(_:)``.
    public static func derivationWork(_ der: ArraySlice<UInt8>) throws -> Int {
        switch try parse(der).algorithm.derivation {
        case .pbkdf2(_, let iterations, _), .pbkdf1(_, let iterations, _), .pkcs12(_, let iterations):
            return iterations
        case .scrypt(_, let n, let r, let p):
            let (product, overflow) = Int(n).multipliedReportingOverflow(by: Int(r) * Int(p))
            return overflow ? Int.max : product
        }
    }

    /// Decrypts and decodes an EncryptedPrivateKeyInfo DER holding a key of any algorithm Coffer handles.
    ///
    /// - Throws: ``KeyError`` `.wrongPassphrase` when the padding is wrong or the plaintext is not
    ///   a PKCS#8 key ("wrong passphrase, or the key is damaged"); `.malformed` with the byte offset
    ///   for a bad structure; `.unsupportedEncryption`; `.unsupportedAlgorithm` naming DSA, other
    ///   curves and the like.
    public static func decode(_ der: ArraySlice<UInt8>, passphrase: SecureBytes) throws -> (key: PrivateKey, encryption: KeyEncryptionInfo) {
        try decode(parse(der), passphrase: passphrase)
    }

    /// Decrypts already parsed parts (see ``parse(_:)``): callers that check the structure before
    /// asking for a passphrase parse it once.
    package static func decode(_ parts: Parts, passphrase: SecureBytes) throws -> (key: PrivateKey, encryption: KeyEncryptionInfo) {
        var plaintext = try parts.algorithm.decrypt(parts.encryptedData, passphrase: passphrase, what: "encrypted PKCS#8 key")
        defer { SecureMemory.zero(&plaintext) }
        do {
            return (try PKCS8PrivateKey.decode(plaintext[...]), parts.algorithm.info)
        } catch let error as KeyError where error.code == .malformed {
            throw KeyError.wrongPassphrase("encrypted PKCS#8 key", cause: error)
        }
    }

    /// Encrypts `key` as an EncryptedPrivateKeyInfo DER with PBES2: a random 16-byte salt, a random
    /// IV, the given cipher (AES-128/192/256-CBC or DES-EDE3-CBC) and key derivation. The default is
    /// what `openssl pkcs8 -topk8 -v2 aes-256-cbc -v2prf hmacWithSHA256` writes.
    ///
    /// - Throws: ``KeyError`` `.invalidArgument` for another cipher or bad KDF parameters.
    public static func encode(_ key: PrivateKey, passphrase: SecureBytes, cipher: SymmetricCipher = .aes256CBC,
                              keyDerivation: KeyDerivation = .default) throws -> [UInt8] {
        guard PBEAlgorithm.oid(for: cipher) != nil else {
            throw KeyError(.invalidArgument, "PBES2 cipher \(PBEAlgorithm.cipherName(cipher)) is not supported for writing (aes-128-cbc, aes-192-cbc, aes-256-cbc, des-ede3-cbc are)")
        }
        do {
            let salt = try SecureRandom.bytes(16)
            let iv = try SecureRandom.bytes(cipher.ivSize)
            let derivation: PBEAlgorithm.Derivation
            switch keyDerivation {
            case .pbkdf2(let iterations, let prf):
                guard iterations >= 1, iterations <= PBEAlgorithm.maximumIterations, prf != .md5 else {
                    throw KeyError(.invalidArgument, "PBKDF2 needs 1 to \(PBEAlgorithm.maximumIterations) iterations and an HMAC-SHA PRF")
                }
                derivation = .pbkdf2(salt: salt, iterations: iterations, prf: prf)
            case .scrypt(let n, let r, let p):
                guard n > 1, n & (n - 1) == 0, n <= PBEAlgorithm.maximumScryptN, (1...1024).contains(r), (1...1024).contains(p) else {
                    throw KeyError(.invalidArgument, "scrypt needs N a power of two from 2 to \(PBEAlgorithm.maximumScryptN), r and p from 1 to 1024")
                }
                derivation = .scrypt(salt: salt, n: n, r: r, p: p)
            }
            return try encode(key, passphrase: passphrase, algorithm: PBEAlgorithm(derivation: derivation, cipher: cipher, iv: iv))
        } catch let error as CryptoError {
            throw KeyError(.operationFailed, "encrypting the PKCS#8 key failed: \(error.reason)", cause: error)
        }
    }

    /// Encrypts `key` under `algorithm` (PBES2 or a PKCS#12 PBE scheme, with its salt chosen).
    static func encode(_ key: PrivateKey, passphrase: SecureBytes, algorithm: PBEAlgorithm) throws -> [UInt8] {
        let ciphertext = try algorithm.encrypt(PKCS8PrivateKey.encode(key), passphrase: passphrase)
        var writer = DERWriter(capacity: ciphertext.count + 128)
        try writer.writeSequence { seq in
            try algorithm.write(to: &seq)
            seq.writeOctetString(ciphertext)
        }
        return writer.finish()
    }
}
