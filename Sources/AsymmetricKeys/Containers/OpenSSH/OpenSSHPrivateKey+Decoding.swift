import CofferErrors
import CryptoOpenSSL

extension OpenSSHPrivateKey {
    /// The KDF name in ``KeyEncryptionInfo`` for encrypted OpenSSH keys.
    static let kdfName = "bcrypt-pbkdf"

    /// The outer, unencrypted part of an `openssh-key-v1` blob.
    struct Envelope {
        var cipher: OpenSSHCipher
        /// bcrypt's salt and rounds (empty and 0 when unencrypted).
        var salt: ArraySlice<UInt8>
        var rounds: Int
        var publicKey: PublicKey
        var section: ArraySlice<UInt8>
        var tag: ArraySlice<UInt8>

        var encryption: KeyEncryptionInfo? {
            cipher == .none ? nil : KeyEncryptionInfo(cipher: cipher.rawValue, kdf: OpenSSHPrivateKey.kdfName)
        }
    }

    /// The fields before the private section, as read.
    struct Header {
        var cipherName: ArraySlice<UInt8>
        var cipherOffset: Int
        var kdf: ArraySlice<UInt8>
        var kdfOffset: Int
        var kdfOptions: ArraySlice<UInt8>
        var optionsOffset: Int
        var publicKey: PublicKey
    }

    /// Parses the magic, cipher, KDF, options, key count and public key; the reader is left at the
    /// private section. Offsets in errors count from the blob's first byte.
    static func parseHeader(_ reader: inout SSHWireReader) throws -> Header {
        guard reader.remaining.starts(with: magic) else {
            throw reader.malformed("does not start with 'openssh-key-v1\\0'")
        }
        _ = try reader.readBytes(magic.count)
        let cipherOffset = reader.offset
        let cipherName = try reader.readString()
        let kdfOffset = reader.offset
        let kdf = try reader.readString()
        let optionsOffset = reader.offset
        let kdfOptions = try reader.readString()
        let countOffset = reader.offset
        let keyCount = try reader.readUInt32()
        guard keyCount == 1 else {
            throw KeyError(.malformed, "OpenSSH private key holds \(keyCount) keys (at offset \(countOffset)); exactly one is supported",
                              offset: countOffset)
        }
        let publicOffset = reader.offset
        let publicBlob = try reader.readString()
        let publicKey = try OpenSSHPublicKey.decodeBlob(publicBlob, baseOffset: publicOffset + 4,
                                                         context: "OpenSSH private key's public key")
        return Header(cipherName: cipherName, cipherOffset: cipherOffset, kdf: kdf, kdfOffset: kdfOffset,
                      kdfOptions: kdfOptions, optionsOffset: optionsOffset, publicKey: publicKey)
    }

    /// Reads bcrypt's options: `string salt`, `uint32 rounds`, nothing after; both bounded.
    static func parseBcryptOptions(_ header: Header) throws -> (salt: ArraySlice<UInt8>, rounds: Int) {
        let start = header.optionsOffset + 4
        var options = SSHWireReader(header.kdfOptions, baseOffset: start, context: "OpenSSH private key bcrypt options")
        let salt = try options.readString()
        let roundsOffset = options.offset
        let rounds = try options.readUInt32()
        try options.finish()
        guard !salt.isEmpty else {
            throw KeyError(.malformed, "OpenSSH private key bcrypt salt at offset \(start) is empty", offset: start)
        }
        guard rounds >= 1 else {
            throw KeyError(.malformed, "OpenSSH private key bcrypt rounds at offset \(roundsOffset) is 0", offset: roundsOffset)
        }
        try KDFLimits.current.checkRounds(Int(rounds), "OpenSSH private key bcrypt rounds", offset: roundsOffset)
        return (salt, Int(rounds))
    }

    /// Parses everything but the private section; offsets in errors count from the blob's first byte.
    static func parseEnvelope(_ blob: ArraySlice<UInt8>) throws -> Envelope {
        var reader = SSHWireReader(blob, context: "OpenSSH private key")
        let header = try parseHeader(&reader)
        let (cipherName, cipherOffset, kdf, kdfOffset, kdfOptions, publicKey) =
            (header.cipherName, header.cipherOffset, header.kdf, header.kdfOffset, header.kdfOptions, header.publicKey)

        guard let cipher = OpenSSHCipher(name: cipherName) else {
            throw KeyError(.unsupportedEncryption,
                              "OpenSSH private key cipher '\(SSHWireReader.printable(cipherName))' at offset \(cipherOffset) is not supported (supported: \(OpenSSHCipher.allCases.map(\.rawValue).joined(separator: ", ")))",
                              offset: cipherOffset)
        }
        let sectionOffset = reader.offset
        let section = try reader.readString()
        let tag = try reader.readBytes(cipher.tagLength)
        try reader.finish()
        guard section.count % cipher.blockSize == 0 else {
            throw KeyError(.malformed, "OpenSSH private section at offset \(sectionOffset) has \(section.count) bytes, not a multiple of the \(cipher.blockSize)-byte block",
                              offset: sectionOffset)
        }

        if cipher == .none {
            guard kdf.elementsEqual("none".utf8), kdfOptions.isEmpty else {
                throw KeyError(.malformed, "unencrypted OpenSSH private key has KDF '\(SSHWireReader.printable(kdf))' with \(kdfOptions.count) option bytes at offset \(kdfOffset); expected 'none' and none",
                                  offset: kdfOffset)
            }
            return Envelope(cipher: cipher, salt: [], rounds: 0, publicKey: publicKey, section: section, tag: tag)
        }
        guard kdf.elementsEqual("bcrypt".utf8) else {
            throw KeyError(.unsupportedEncryption, "OpenSSH private key KDF '\(SSHWireReader.printable(kdf))' at offset \(kdfOffset) is not supported (only bcrypt)",
                              offset: kdfOffset)
        }
        let (salt, rounds) = try parseBcryptOptions(header)
        return Envelope(cipher: cipher, salt: salt, rounds: rounds, publicKey: publicKey, section: section, tag: tag)
    }

    /// Decodes the `openssh-key-v1` blob; offsets in errors count from its first byte.
    static func decodeBlob(_ blob: ArraySlice<UInt8>, passphrase: PassphraseProvider?) throws -> (key: PrivateKey, comment: String?, encryption: KeyEncryptionInfo?) {
        let envelope = try parseEnvelope(blob)
        let cipher = envelope.cipher
        var plaintext: [UInt8]
        if cipher == .none {
            plaintext = Array(envelope.section)
        } else {
            guard let passphrase, let secret = try passphrase("OpenSSH private key") else {
                throw KeyError(.passphraseRequired, "the OpenSSH private key is encrypted (\(cipher.rawValue)); a passphrase is needed")
            }
            guard !secret.isEmpty else { throw KeyError.wrongPassphrase("OpenSSH private key") }
            let keyAndIV = try KeyError.fromOpenSSL("OpenSSH private key bcrypt-pbkdf") {
                try BcryptPBKDF.deriveKey(passphrase: secret, salt: Array(envelope.salt), rounds: envelope.rounds,
                                          keyLength: cipher.keyLength + cipher.ivLength)
            }
            plaintext = try cipher.decrypt(Array(envelope.section), tag: Array(envelope.tag), keyAndIV: keyAndIV)
        }
        defer { SecureMemory.zero(&plaintext) }
        let (key, comment) = try decodePrivateSection(plaintext[...], publicKey: envelope.publicKey, encrypted: cipher != .none,
                                                      blockSize: cipher.blockSize)
        return (key, comment, envelope.encryption)
    }

    /// Reads the (decrypted) private section. Offsets count from its first byte.
    static func decodePrivateSection(_ section: ArraySlice<UInt8>, publicKey: PublicKey, encrypted: Bool, blockSize: Int) throws -> (PrivateKey, String?) {
        var reader = SSHWireReader(section, context: "OpenSSH private section")
        let check1 = try reader.readUInt32()
        let check2 = try reader.readUInt32()
        guard check1 == check2 else {
            if encrypted { throw KeyError.wrongPassphrase("OpenSSH private key") }
            throw KeyError(.malformed, "unencrypted OpenSSH private section has different check numbers at offset 0", offset: 0)
        }
        let typeOffset = reader.offset
        let type = try reader.readString()
        let kind = try OpenSSHKeyType.require(type, in: "OpenSSH private section", offset: typeOffset)
        let key: PrivateKey
        switch (kind, publicKey) {
        case (.rsa, .rsa(let rsa)):
            key = .rsa(try decodeRSAFields(&reader, publicKey: rsa))
        case (.ec(let curve), .ec(let ec)) where ec.curve == curve:
            key = .ec(try decodeECFields(&reader, publicKey: ec))
        case (.octet(let algorithm), .octet(let octet)) where octet.algorithm == algorithm:
            key = .octet(try decodeOctetFields(&reader, publicKey: octet))
        case (.dsa, .dsa(let dsa)):
            key = .dsa(try decodeDSAFields(&reader, publicKey: dsa))
        case (.skEd25519, .securityKey(let sk)) where sk.algorithmName == .skEd25519,
             (.skECDSA, .securityKey(let sk)) where sk.algorithmName == .skECDSA:
            key = .securityKey(try decodeSecurityKeyFields(&reader, publicKey: sk, ecdsa: kind == .skECDSA))
        default:
            throw KeyError(.malformed, "OpenSSH private section's key type '\(SSHWireReader.printable(type))' at offset \(typeOffset) differs from the public key's",
                           offset: typeOffset)
        }
        let commentBytes = try reader.readString()
        let paddingOffset = reader.offset
        let padding = reader.remaining
        // OpenSSH pads to its cipher's block size (8 when unencrypted) and accepts any run of 1, 2,
        // 3, … (the section's length is checked against the block size already); puttygen pads
        // unencrypted keys to 16 bytes with 1 to 16 bytes. Both are read; the run is bounded by the
        // byte values.
        guard padding.count < 256, padding.enumerated().allSatisfy({ $0.element == UInt8(truncatingIfNeeded: $0.offset + 1) }) else {
            throw KeyError(.malformed, "OpenSSH private section padding at offset \(paddingOffset) is not 1, 2, 3, …",
                           offset: paddingOffset)
        }
        return (key, commentBytes.isEmpty ? nil : String(decoding: commentBytes, as: UTF8.self))
    }

    /// `mpint p, q, g, y, x` of a DSA key (OpenSSH's sshkey.c layout).
    private static func decodeDSAFields(_ reader: inout SSHWireReader, publicKey: DSAPublicKey) throws -> DSAPrivateKey {
        let publicOffset = reader.offset
        let stored = try OpenSSHPublicKey.decodeDSABody(&reader)
        guard stored == publicKey else {
            throw KeyError(.malformed, "OpenSSH private section's DSA key at offset \(publicOffset) does not match the public key stored with it", offset: publicOffset)
        }
        let xOffset = reader.offset
        let x = try reader.readPositiveMPInt("x")
        let key = try reader.keyValue(at: xOffset) { try DSAPrivateKey(publicKey: publicKey, x: x) }
        guard key.publicValueMatches else {
            throw KeyError(.malformed, "OpenSSH private section's DSA x at offset \(xOffset) does not belong to the public key (y is not g^x mod p)", offset: xOffset)
        }
        return key
    }

    /// A security key's fields (PROTOCOL.u2f): the public fields, `uint8 flags`, `string key
    /// handle`, `string reserved`.
    private static func decodeSecurityKeyFields(_ reader: inout SSHWireReader, publicKey: SecurityKeyPublicKey, ecdsa: Bool) throws -> SecurityKeyPrivateKey {
        let publicOffset = reader.offset
        let stored = try OpenSSHPublicKey.decodeSecurityKeyBody(&reader, ecdsa: ecdsa)
        guard stored == publicKey else {
            throw KeyError(.malformed, "OpenSSH private section's security key at offset \(publicOffset) does not match the public key stored with it", offset: publicOffset)
        }
        let flags = try reader.readBytes(1)
        let handleOffset = reader.offset
        let handle = try reader.readString()
        guard !handle.isEmpty else {
            throw KeyError(.malformed, "OpenSSH security key's key handle at offset \(handleOffset) is empty", offset: handleOffset)
        }
        let reserved = try reader.readString()
        return SecurityKeyPrivateKey(publicKey: publicKey, flags: flags[flags.startIndex], keyHandle: handle, reserved: reserved)
    }

    /// `mpint n, e, d, iqmp, p, q` of an RSA key.
    private static func decodeRSAFields(_ reader: inout SSHWireReader, publicKey: RSAPublicKey) throws -> RSAPrivateKey {
        let nOffset = reader.offset
        let n = try reader.readPositiveMPInt("n")
        let e = try reader.readPositiveMPInt("e")
        let dOffset = reader.offset
        let d = try reader.readPositiveMPInt("d")
        let iqmp = try reader.readPositiveMPInt("iqmp")
        let pOffset = reader.offset
        let p = try reader.readPositiveMPInt("p")
        let qOffset = reader.offset
        let q = try reader.readPositiveMPInt("q")
        guard n.elementsEqual(publicKey.modulus), e.elementsEqual(publicKey.publicExponent) else {
            throw KeyError(.malformed, "OpenSSH private section's key at offset \(nOffset) does not match the public key stored with it",
                           offset: nOffset)
        }
        guard !d.isEmpty else { throw KeyError(.malformed, "OpenSSH private key has a zero d at offset \(dOffset)", offset: dOffset) }
        guard RSAPrivateKey.isAboveOne(p) else { throw KeyError(.malformed, "OpenSSH private key prime p at offset \(pOffset) is not above 1", offset: pOffset) }
        guard RSAPrivateKey.isAboveOne(q) else { throw KeyError(.malformed, "OpenSSH private key prime q at offset \(qOffset) is not above 1", offset: qOffset) }
        // OpenSSH does not store the CRT exponents; the key computes them when first needed.
        return RSAPrivateKey(publicKey: publicKey, privateExponent: d, prime1: p, prime2: q, coefficient: iqmp)
    }

    /// `string curve, string Q, mpint d` of an ECDSA key (OpenSSH's sshkey.c layout).
    private static func decodeECFields(_ reader: inout SSHWireReader, publicKey: ECPublicKey) throws -> ECPrivateKey {
        let curveOffset = reader.offset
        let curve = try reader.readString()
        guard curve.elementsEqual((publicKey.curve.sshIdentifier ?? publicKey.curve.rawValue).utf8) else {
            throw KeyError(.malformed, "OpenSSH private section names the curve '\(SSHWireReader.printable(curve))' at offset \(curveOffset); the key is \(publicKey.curve.sshIdentifier ?? publicKey.curve.rawValue)",
                           offset: curveOffset)
        }
        let pointOffset = reader.offset
        let point = try reader.readString()
        guard point.elementsEqual(publicKey.point) else {
            throw KeyError(.malformed, "OpenSSH private section's point at offset \(pointOffset) does not match the public key stored with it", offset: pointOffset)
        }
        let scalarOffset = reader.offset
        let scalar = try reader.readPositiveMPInt("d")
        return try reader.keyValue(at: scalarOffset) {
            // The point equals the public key read (and checked on the curve) from the header.
            try ECPrivateKey(curve: publicKey.curve, scalar: scalar, publicKey: publicKey)
        }
    }

    /// `string public key, string (seed ‖ public key)` of an Ed25519 key (OpenSSH's layout, which
    /// stores the 64-byte form of the private key that the reference implementation uses).
    private static func decodeOctetFields(_ reader: inout SSHWireReader, publicKey: OctetPublicKey) throws -> OctetPrivateKey {
        let length = publicKey.algorithm.keyLength
        let publicOffset = reader.offset
        let stored = try reader.readString()
        guard stored.elementsEqual(publicKey.bytes) else {
            throw KeyError(.malformed, "OpenSSH private section's public key at offset \(publicOffset) does not match the public key stored with it", offset: publicOffset)
        }
        let privateOffset = reader.offset
        let combined = try reader.readString()
        guard combined.count == 2 * length else {
            throw KeyError(.malformed, "OpenSSH \(publicKey.algorithm.displayName) private key at offset \(privateOffset) has \(combined.count) bytes; expected \(2 * length) (seed and public key)",
                           offset: privateOffset)
        }
        guard combined.suffix(length).elementsEqual(publicKey.bytes) else {
            throw KeyError(.malformed, "OpenSSH \(publicKey.algorithm.displayName) private key at offset \(privateOffset) ends in a public key that differs from the stored one",
                           offset: privateOffset)
        }
        return try OctetPrivateKey(algorithm: publicKey.algorithm, bytes: combined.prefix(length), storedPublicKey: publicKey)
    }
}
