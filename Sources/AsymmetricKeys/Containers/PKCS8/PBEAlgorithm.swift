import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// The `encryptionAlgorithm` of an EncryptedPrivateKeyInfo: PBES2 (PBKDF2 or scrypt, with
/// AES-CBC or DES-EDE3-CBC) or one of the PBES1 schemes Coffer reads.
///
/// ```
/// PBES2-params ::= SEQUENCE {                         -- RFC 8018 §A.4
///     keyDerivationFunc  AlgorithmIdentifier {{PBES2-KDFs}},
///     encryptionScheme   AlgorithmIdentifier {{PBES2-Encs}} }
/// PBKDF2-params ::= SEQUENCE {                        -- RFC 8018 §A.2
///     salt            CHOICE { specified OCTET STRING, otherSource AlgorithmIdentifier },
///     iterationCount  INTEGER (1..MAX),
///     keyLength       INTEGER (1..MAX) OPTIONAL,
///     prf             AlgorithmIdentifier DEFAULT algid-hmacWithSHA1 }
/// scrypt-params ::= SEQUENCE {                        -- RFC 7914 §7
///     salt                      OCTET STRING,
///     costParameter             INTEGER (1..MAX),
///     blockSize                 INTEGER (1..MAX),
///     parallelizationParameter  INTEGER (1..MAX),
///     keyLength                 INTEGER (1..MAX) OPTIONAL }
/// PBEParameter ::= SEQUENCE {                         -- RFC 8018 §A.3 (PBES1)
///     salt            OCTET STRING (SIZE(8)),
///     iterationCount  INTEGER }
/// pkcs-12PbeParams ::= SEQUENCE {                     -- RFC 7292 §C
///     salt        OCTET STRING,
///     iterations  INTEGER }
/// ```
package struct PBEAlgorithm: Sendable {
    /// How the key (and for PBES1 the IV) is derived from the passphrase.
    enum Derivation: Sendable {
        case pbkdf2(salt: [UInt8], iterations: Int, prf: DigestAlgorithm)
        case scrypt(salt: [UInt8], n: UInt64, r: UInt64, p: UInt64)
        /// PBES1 with PBKDF1: key and IV both come from the KDF.
        case pbkdf1(salt: [UInt8], iterations: Int, digest: DigestAlgorithm)
        /// PKCS#12 v1 key derivation (RFC 7292 Appendix B) with SHA-1.
        case pkcs12(salt: [UInt8], iterations: Int)
    }

    /// The key derivation.
    var derivation: Derivation
    /// The cipher.
    var cipher: SymmetricCipher
    /// The IV, for PBES2 (PBES1 derives it).
    var iv: [UInt8]?

    // MARK: Limits (bounded before any work is done)

    /// The most PBKDF2/PBKDF1/PKCS#12 iterations any encoder writes (readers apply ``KDFLimits``).
    static let maximumIterations = KDFLimits.default.maximumIterations
    /// The longest salt accepted from a file.
    static let maximumSaltLength = 1024
    /// The largest scrypt cost N encoders write (2^20, 1 GiB of memory at r = 8).
    static let maximumScryptN: UInt64 = 1 << 20
    /// The memory OpenSSL's scrypt is allowed at least (the cost was checked against ``KDFLimits`` on reading).
    static let scryptMaxMemory: UInt64 = 1 << 31

    /// How `inspect` names the protection.
    var info: KeyEncryptionInfo {
        KeyEncryptionInfo(cipher: PBEAlgorithm.cipherName(cipher), kdf: kdfName)
    }

    /// `pbkdf2-hmac-sha256`, `scrypt`, `pbes1-md5`, `pbes1-sha1`, `pkcs12-sha1`.
    var kdfName: String {
        switch derivation {
        case .pbkdf2(_, _, let prf): "pbkdf2-hmac-\(prf.shortName)"
        case .scrypt: "scrypt"
        case .pbkdf1(_, _, let digest): "pbes1-\(digest.shortName)"
        case .pkcs12: "pkcs12-sha1"
        }
    }

    /// OpenSSL's lowercase name of a cipher (`aes-256-cbc`, `des-ede3-cbc`, `des-cbc`).
    static func cipherName(_ cipher: SymmetricCipher) -> String {
        cipher.rawValue.lowercased()
    }

    // MARK: Reading

    /// Reads the `encryptionAlgorithm` AlgorithmIdentifier.
    static func read(from reader: inout DERReader) throws -> PBEAlgorithm {
        try reader.readSequence { seq in
            let oidOffset = seq.offset
            let oid = try seq.readObjectIdentifier()
            switch oid {
            case .pbes2:
                return try seq.readSequence { params in
                    let derivationOffset = params.offset
                    let (derivation, keyLength) = try readPBES2KDF(from: &params)
                    let (cipher, iv) = try readPBES2Cipher(from: &params)
                    if let keyLength, keyLength != cipher.keySize {
                        throw KeyError(.malformed, "PBES2 key length \(keyLength) at offset \(derivationOffset) does not fit \(cipherName(cipher)) (\(cipher.keySize) bytes)",
                                          offset: derivationOffset)
                    }
                    return PBEAlgorithm(derivation: derivation, cipher: cipher, iv: iv)
                }
            case .pbeWithMD5AndDESCBC, .pbeWithSHA1AndDESCBC:
                let (salt, iterations) = try readSaltAndIterations(from: &seq, scheme: "PBES1")
                guard salt.count == 8 else {
                    throw KeyError(.malformed, "PBES1 salt at offset \(oidOffset) is \(salt.count) bytes, not 8", offset: oidOffset)
                }
                let digest: DigestAlgorithm = oid == .pbeWithMD5AndDESCBC ? .md5 : .sha1
                return PBEAlgorithm(derivation: .pbkdf1(salt: salt, iterations: iterations, digest: digest), cipher: .desCBC, iv: nil)
            case .pbeWithSHA1And3KeyTripleDESCBC, .pbeWithSHA1And40BitRC2CBC, .pbeWithSHA1And128BitRC2CBC:
                let (salt, iterations) = try readSaltAndIterations(from: &seq, scheme: "PKCS#12 PBE")
                let cipher: SymmetricCipher = switch oid {
                case .pbeWithSHA1And40BitRC2CBC: .rc2_40CBC
                case .pbeWithSHA1And128BitRC2CBC: .rc2CBC
                default: .desEDE3CBC
                }
                return PBEAlgorithm(derivation: .pkcs12(salt: salt, iterations: iterations), cipher: cipher, iv: nil)
            default:
                while !seq.isAtEnd { _ = try seq.readElement() }
                throw KeyError(.unsupportedEncryption, "encryption scheme \(oid) at offset \(oidOffset) is not supported (PBES2 with PBKDF2 or scrypt, PBES1 MD5-DES / SHA1-DES, and PKCS#12 SHA1-3DES / SHA1-RC2 are)",
                                  offset: oidOffset)
            }
        }
    }

    /// Reads PBES2's `keyDerivationFunc`; returns the derivation and the optional key length.
    private static func readPBES2KDF(from reader: inout DERReader) throws -> (Derivation, Int?) {
        try reader.readSequence { seq in
            let oidOffset = seq.offset
            let oid = try seq.readObjectIdentifier()
            switch oid {
            case .pbkdf2:
                return try seq.readSequence { params in
                    let saltOffset = params.offset
                    guard try params.peekTag() == .octetString else {
                        throw KeyError(.unsupportedEncryption, "PBKDF2 salt at offset \(saltOffset) is not an OCTET STRING (otherSource is not supported)", offset: saltOffset)
                    }
                    let salt = try readSalt(from: &params)
                    let iterations = try readIterations(from: &params, what: "PBKDF2 iteration count")
                    var keyLength: Int?
                    if try params.peekTag() == .integer {
                        keyLength = try readCount(from: &params, what: "PBKDF2 key length", limit: 64)
                    }
                    var prf = DigestAlgorithm.sha1
                    if !params.isAtEnd {
                        prf = try readPRF(from: &params)
                    }
                    return (.pbkdf2(salt: salt, iterations: iterations, prf: prf), keyLength)
                }
            case .scrypt:
                return try seq.readSequence { params in
                    let salt = try readSalt(from: &params)
                    let nOffset = params.offset
                    let n = try readCount(from: &params, what: "scrypt cost N", limit: Int.max)
                    guard n > 1, n & (n - 1) == 0 else {
                        throw KeyError(.malformed, "scrypt cost N at offset \(nOffset) is not a power of two greater than 1", offset: nOffset)
                    }
                    let r = try readCount(from: &params, what: "scrypt block size r", limit: 1024)
                    let p = try readCount(from: &params, what: "scrypt parallelization p", limit: 1024)
                    // 128·N·r bytes, computed without overflow: N ≤ 2^62 as a positive Int, r ≤ 2^10.
                    let memory = UInt64(n).multipliedReportingOverflow(by: UInt64(128 * r))
                    try KDFLimits.current.checkMemory(memory.overflow ? .max : memory.partialValue, "scrypt memory (128·N·r)", offset: nOffset)
                    var keyLength: Int?
                    if !params.isAtEnd {
                        keyLength = try readCount(from: &params, what: "scrypt key length", limit: 64)
                    }
                    return (.scrypt(salt: salt, n: UInt64(n), r: UInt64(r), p: UInt64(p)), keyLength)
                }
            default:
                throw KeyError(.unsupportedEncryption, "PBES2 key derivation \(oid) at offset \(oidOffset) is not supported (PBKDF2 and scrypt are)", offset: oidOffset)
            }
        }
    }

    /// Reads PBKDF2's `prf` AlgorithmIdentifier (parameters NULL or absent).
    private static func readPRF(from reader: inout DERReader) throws -> DigestAlgorithm {
        try reader.readSequence { seq in
            let oidOffset = seq.offset
            let oid = try seq.readObjectIdentifier()
            if !seq.isAtEnd { try seq.readNull() }
            switch oid {
            case .hmacWithSHA1: return .sha1
            case .hmacWithSHA224: return .sha224
            case .hmacWithSHA256: return .sha256
            case .hmacWithSHA384: return .sha384
            case .hmacWithSHA512: return .sha512
            default:
                throw KeyError(.unsupportedEncryption, "PBKDF2 PRF \(oid) at offset \(oidOffset) is not supported (HMAC-SHA1/224/256/384/512 are)", offset: oidOffset)
            }
        }
    }

    /// Reads PBES2's `encryptionScheme`: the cipher and its IV (an OCTET STRING).
    private static func readPBES2Cipher(from reader: inout DERReader) throws -> (SymmetricCipher, [UInt8]) {
        try reader.readSequence { seq in
            let oidOffset = seq.offset
            let oid = try seq.readObjectIdentifier()
            guard let cipher = cipher(for: oid) else {
                while !seq.isAtEnd { _ = try seq.readElement() }
                throw KeyError(.unsupportedEncryption, "PBES2 cipher \(oid) at offset \(oidOffset) is not supported (AES-128/192/256-CBC and DES-EDE3-CBC are)", offset: oidOffset)
            }
            let ivOffset = seq.offset
            let iv = try seq.readOctetString()
            guard iv.count == cipher.ivSize else {
                throw KeyError(.malformed, "\(cipherName(cipher)) IV at offset \(ivOffset) is \(iv.count) bytes, not \(cipher.ivSize)", offset: ivOffset)
            }
            return (cipher, Array(iv))
        }
    }

    /// Reads PBES1 / PKCS#12 `{ salt OCTET STRING, iterations INTEGER }`.
    private static func readSaltAndIterations(from reader: inout DERReader, scheme: String) throws -> ([UInt8], Int) {
        try reader.readSequence { params in
            let salt = try readSalt(from: &params)
            let iterations = try readIterations(from: &params, what: "\(scheme) iteration count")
            return (salt, iterations)
        }
    }

    private static func readSalt(from reader: inout DERReader) throws -> [UInt8] {
        let offset = reader.offset
        let salt = try reader.readOctetString()
        guard !salt.isEmpty, salt.count <= maximumSaltLength else {
            throw KeyError(.malformed, "salt at offset \(offset) is \(salt.count) bytes (1 to \(maximumSaltLength) accepted)", offset: offset)
        }
        return Array(salt)
    }

    /// Reads an iteration count: at least 1, at most ``KDFLimits/current``'s cap.
    private static func readIterations(from reader: inout DERReader, what: String) throws -> Int {
        let offset = reader.offset
        let iterations = try readCount(from: &reader, what: what, limit: Int.max)
        try KDFLimits.current.checkIterations(iterations, what, offset: offset)
        return iterations
    }

    /// Reads an INTEGER in 1...limit.
    private static func readCount(from reader: inout DERReader, what: String, limit: Int) throws -> Int {
        let offset = reader.offset
        let element = try reader.readElement(.integer)
        guard !element.isNegativeInteger, let value = try? element.integer(as: Int.self), value >= 1, value <= limit else {
            throw KeyError(.malformed, "\(what) at offset \(offset) is out of range (1 to \(limit) accepted)", offset: offset)
        }
        return value
    }

    /// The PBES2 cipher for an OID.
    static func cipher(for oid: ASN1ObjectIdentifier) -> SymmetricCipher? {
        switch oid {
        case .aes128CBC: .aes128CBC
        case .aes192CBC: .aes192CBC
        case .aes256CBC: .aes256CBC
        case .desEDE3CBC: .desEDE3CBC
        default: nil
        }
    }

    /// The OID of a PBES2 cipher.
    static func oid(for cipher: SymmetricCipher) -> ASN1ObjectIdentifier? {
        switch cipher {
        case .aes128CBC: .aes128CBC
        case .aes192CBC: .aes192CBC
        case .aes256CBC: .aes256CBC
        case .desEDE3CBC: .desEDE3CBC
        default: nil
        }
    }

    // MARK: Writing

    /// Writes the `encryptionAlgorithm`: PBES2 parameters (PBKDF2 or scrypt), or a PKCS#12 PBE
    /// scheme (SHA-1 with 3DES or RC2) for legacy PKCS#12 files.
    func write(to writer: inout DERWriter) throws {
        if case .pkcs12(let salt, let iterations) = derivation {
            let oid: ASN1ObjectIdentifier = switch cipher {
            case .rc2_40CBC: .pbeWithSHA1And40BitRC2CBC
            case .rc2CBC: .pbeWithSHA1And128BitRC2CBC
            default: .pbeWithSHA1And3KeyTripleDESCBC
            }
            writer.writeSequence { seq in
                seq.writeObjectIdentifier(oid)
                seq.writeSequence { params in
                    params.writeOctetString(salt)
                    params.writeInteger(iterations)
                }
            }
            return
        }
        guard let iv, let cipherOID = PBEAlgorithm.oid(for: cipher) else {
            throw KeyError(.invalidArgument, "only PBES2 with AES-CBC or DES-EDE3-CBC can be written")
        }
        var failure: KeyError?
        writer.writeSequence { seq in
            seq.writeObjectIdentifier(.pbes2)
            seq.writeSequence { params in
                params.writeSequence { kdf in
                    switch derivation {
                    case .pbkdf2(let salt, let iterations, let prf):
                        kdf.writeObjectIdentifier(.pbkdf2)
                        kdf.writeSequence { p in
                            p.writeOctetString(salt)
                            p.writeInteger(iterations)
                            if prf != .sha1 {
                                p.writeSequence { alg in
                                    alg.writeObjectIdentifier(PBEAlgorithm.prfOID(prf))
                                    alg.writeNull()
                                }
                            }
                        }
                    case .scrypt(let salt, let n, let r, let p):
                        kdf.writeObjectIdentifier(.scrypt)
                        kdf.writeSequence { s in
                            s.writeOctetString(salt)
                            s.writeInteger(n)
                            s.writeInteger(r)
                            s.writeInteger(p)
                            s.writeInteger(cipher.keySize)
                        }
                    case .pbkdf1, .pkcs12:
                        failure = KeyError(.invalidArgument, "PBES1 (PBKDF1) is read-only")
                    }
                }
                params.writeSequence { enc in
                    enc.writeObjectIdentifier(cipherOID)
                    enc.writeOctetString(iv)
                }
            }
        }
        if let failure { throw failure }
    }

    static func prfOID(_ digest: DigestAlgorithm) -> ASN1ObjectIdentifier {
        switch digest {
        case .sha1: .hmacWithSHA1
        case .sha224: .hmacWithSHA224
        case .sha384: .hmacWithSHA384
        case .sha512: .hmacWithSHA512
        default: .hmacWithSHA256
        }
    }
}
