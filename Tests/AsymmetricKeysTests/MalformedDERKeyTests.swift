import ASN1Kit
import CofferErrors
import CryptoOpenSSL
import Foundation
import AsymmetricKeys
import Testing

@Suite("Malformed DER keys: clear errors with offsets, never a crash")
struct MalformedDERKeyTests {
    /// Every decoder of this area, by name.
    static let decoders: [(String, @Sendable ([UInt8]) throws -> Void)] = [
        ("pkcs8", { _ = try PKCS8PrivateKey.decode($0) }),
        ("spki", { _ = try SubjectPublicKeyInfo.decode($0) }),
        ("encrypted-pkcs8", { _ = try EncryptedPrivateKeyInfo.decode($0[...], passphrase: SecureBytes(Array("x".utf8))) }),
        ("x509", { _ = try CertificateDER.publicKey(in: $0[...]) }),
    ]

    static func decoder(_ name: String) -> @Sendable ([UInt8]) throws -> Void {
        decoders.first { $0.0 == name }!.1
    }

    @Test("every truncation is .malformed with an offset", arguments: [
        ("rsa2048.pkcs8.der", "pkcs8"), ("rsa2048.spki.der", "spki"),
        ("rsa2048.pkcs8-aes128-sha1.der", "encrypted-pkcs8"), ("rsa2048.cert.der", "x509"),
    ])
    func truncations(file: String, decoder name: String) throws {
        let der = try DERFixtures.bytes(file)
        let decode = Self.decoder(name)
        for length in 0..<der.count {
            let error = try #require(throws: KeyError.self) { try decode(Array(der[..<length])) }
            #expect(error.code == .malformed, "length \(length)")
            #expect(error.offset != nil, "length \(length): \(error.reason)")
            #expect(error.reason.contains("offset"))
        }
    }

    @Test("trailing bytes are .malformed at the offset where they start", arguments: [
        ("rsa2048.pkcs8.der", "pkcs8"), ("rsa2048.spki.der", "spki"),
        ("rsa2048.pkcs8-aes128-sha1.der", "encrypted-pkcs8"), ("rsa2048.cert.der", "x509"),
    ])
    func trailing(file: String, decoder name: String) throws {
        let der = try DERFixtures.bytes(file)
        let error = try #require(throws: KeyError.self) { try Self.decoder(name)(der + [0x00]) }
        #expect(error.code == .malformed)
        #expect(error.offset == der.count)
    }

    @Test("a length that runs past the end, or a non-minimal length, is .malformed")
    func badLengths() throws {
        var der = try DERFixtures.bytes("rsa1024.spki.der")
        // 30 81 9f …: claim one byte more than there is.
        #expect(der[0] == 0x30 && der[1] == 0x81)
        der[2] &+= 1
        let overrun = try #require(throws: KeyError.self) { try SubjectPublicKeyInfo.decode(der) }
        #expect(overrun.code == .malformed)
        #expect(overrun.offset == 0)
        // 30 82 00 9f …: the long form where the short one fits.
        var original = try DERFixtures.bytes("rsa1024.spki.der")
        original.replaceSubrange(1...2, with: [0x82, 0x00, original[2]])
        let nonMinimal = try #require(throws: KeyError.self) { try SubjectPublicKeyInfo.decode(original) }
        #expect(nonMinimal.code == .malformed)
    }

    /// SPKI around an RSAPublicKey whose INTEGERs are written raw.
    static func spki(modulusContent: [UInt8], exponentContent: [UInt8]) -> [UInt8] {
        var inner = DERWriter()
        inner.writeSequence { seq in
            seq.writePrimitive(.integer, content: modulusContent)
            seq.writePrimitive(.integer, content: exponentContent)
        }
        var writer = DERWriter()
        writer.writeSequence { seq in
            seq.writeSequence { alg in
                alg.writeObjectIdentifier(.rsaEncryption)
                alg.writeNull()
            }
            seq.writeBitString(ASN1BitString(bytes: inner.finish()))
        }
        return writer.finish()
    }

    @Test("negative and non-minimal INTEGERs are .malformed with the offset of the INTEGER")
    func integers() throws {
        let modulus = try #require(try SubjectPublicKeyInfo.decode(DERFixtures.bytes("rsa1024.spki.der")).rsa).modulus
        // The RSAPublicKey starts at offset 22 (30 81 9f | 30 0d … | 03 81 8d 00), its modulus at 25.
        let negative = Self.spki(modulusContent: modulus, exponentContent: [0x01, 0x00, 0x01])
        let negativeError = try #require(throws: KeyError.self) { try SubjectPublicKeyInfo.decode(negative) }
        #expect(negativeError.code == .malformed)
        #expect(negativeError.offset == 25)
        let nonMinimal = Self.spki(modulusContent: [0x00] + modulus, exponentContent: [0x00, 0x01, 0x00, 0x01])
        let nonMinimalError = try #require(throws: KeyError.self) { try SubjectPublicKeyInfo.decode(nonMinimal) }
        #expect(nonMinimalError.code == .malformed)
        #expect(nonMinimalError.offset != nil)
        let zero = Self.spki(modulusContent: [0x00], exponentContent: [0x03])
        #expect(throws: KeyError(.malformed, "")) { try SubjectPublicKeyInfo.decode(zero) }
    }

    @Test("a PKCS#8 with a damaged inner RSAPrivateKey reports an offset inside the PKCS#8")
    func innerOffset() throws {
        var der = try DERFixtures.bytes("rsa1024.pkcs8.der")
        // 30 82 xx xx | 02 01 00 | 30 0d … (15) | 04 82 xx xx | 30 82 … : the inner SEQUENCE is at 26.
        #expect(der[26] == 0x30)
        der[26] = 0x31
        let error = try #require(throws: KeyError.self) { try PKCS8PrivateKey.decode(der) }
        #expect(error.code == .malformed)
        #expect(error.offset == 26)
        #expect(error.reason.contains("offset 22"))
    }

    /// An EncryptedPrivateKeyInfo with PBES2 whose KDF and cipher parts are written by the closures.
    static func encryptedInfo(kdf: (inout DERWriter) -> Void, cipher: (inout DERWriter) -> Void, dataLength: Int = 32) -> [UInt8] {
        var writer = DERWriter()
        writer.writeSequence { seq in
            seq.writeSequence { alg in
                alg.writeObjectIdentifier(.pbes2)
                alg.writeSequence { params in
                    params.writeSequence { kdf(&$0) }
                    params.writeSequence { cipher(&$0) }
                }
            }
            seq.writeOctetString([UInt8](repeating: 0xA5, count: dataLength))
        }
        return writer.finish()
    }

    static func aes256(_ enc: inout DERWriter) {
        enc.writeObjectIdentifier(.aes256CBC)
        enc.writeOctetString([UInt8](repeating: 1, count: 16))
    }

    static func pbkdf2(iterations: Int, keyLength: Int? = nil) -> (inout DERWriter) -> Void {
        { kdf in
            kdf.writeObjectIdentifier(.pbkdf2)
            kdf.writeSequence { p in
                p.writeOctetString([UInt8](repeating: 2, count: 8))
                p.writeInteger(iterations)
                if let keyLength { p.writeInteger(keyLength) }
            }
        }
    }

    @Test("bounds on KDF parameters are checked before any work")
    func kdfBounds() throws {
        let cases: [([UInt8], KeyError.Code)] = [
            // Costs above KDFLimits are their own error, with the cap named (KDFLimitsTests).
            (Self.encryptedInfo(kdf: Self.pbkdf2(iterations: 2_000_000_000), cipher: Self.aes256), .costTooHigh),
            (Self.encryptedInfo(kdf: Self.pbkdf2(iterations: 0), cipher: Self.aes256), .malformed),
            (Self.encryptedInfo(kdf: Self.pbkdf2(iterations: -5), cipher: Self.aes256), .malformed),
            (Self.encryptedInfo(kdf: Self.pbkdf2(iterations: 10, keyLength: 16), cipher: Self.aes256), .malformed),
            (Self.encryptedInfo(kdf: { kdf in
                kdf.writeObjectIdentifier(.scrypt)
                kdf.writeSequence { s in
                    s.writeOctetString([1, 2, 3, 4]); s.writeInteger(1000); s.writeInteger(8); s.writeInteger(1)
                }
            }, cipher: Self.aes256), .malformed),
            (Self.encryptedInfo(kdf: { kdf in
                kdf.writeObjectIdentifier(.scrypt)
                kdf.writeSequence { s in
                    s.writeOctetString([1, 2, 3, 4]); s.writeInteger(1 << 30); s.writeInteger(8); s.writeInteger(1)
                }
            }, cipher: Self.aes256), .costTooHigh),
            (Self.encryptedInfo(kdf: Self.pbkdf2(iterations: 10), cipher: { enc in
                enc.writeObjectIdentifier(.aes256GCM)
                enc.writeOctetString([UInt8](repeating: 1, count: 12))
            }), .unsupportedEncryption),
            (Self.encryptedInfo(kdf: Self.pbkdf2(iterations: 10), cipher: { enc in
                enc.writeObjectIdentifier(.aes256CBC)
                enc.writeOctetString([UInt8](repeating: 1, count: 8))
            }), .malformed),
            (Self.encryptedInfo(kdf: { kdf in
                kdf.writeObjectIdentifier("1.2.3.4")
                kdf.writeNull()
            }, cipher: Self.aes256), .unsupportedEncryption),
            (Self.encryptedInfo(kdf: Self.pbkdf2(iterations: 10), cipher: Self.aes256, dataLength: 33), .malformed),
            (Self.encryptedInfo(kdf: Self.pbkdf2(iterations: 10), cipher: Self.aes256, dataLength: 0), .malformed),
        ]
        for (der, code) in cases {
            let error = try #require(throws: KeyError.self) { try EncryptedPrivateKeyInfo.encryptionInfo(der[...]) }
            #expect(error.code == code, "\(error.reason)")
            #expect(error.offset != nil, "\(error.reason)")
        }
    }

    @Test("an unsupported PRF is .unsupportedEncryption")
    func badPRF() throws {
        let der = Self.encryptedInfo(kdf: { kdf in
            kdf.writeObjectIdentifier(.pbkdf2)
            kdf.writeSequence { p in
                p.writeOctetString([1, 2, 3, 4, 5, 6, 7, 8])
                p.writeInteger(10)
                p.writeSequence { prf in prf.writeObjectIdentifier(.md5); prf.writeNull() }
            }
        }, cipher: Self.aes256)
        #expect(throws: KeyError(.unsupportedEncryption, "")) { try EncryptedPrivateKeyInfo.encryptionInfo(der[...]) }
    }

    @Test("random bytes never crash a decoder")
    func randomBytes() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<400 {
            let count = Int.random(in: 0..<200, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Half of the inputs start like a SEQUENCE so they get past the first check.
            if round % 2 == 0 && !bytes.isEmpty { bytes[0] = 0x30 }
            for (_, decode) in Self.decoders {
                #expect(throws: KeyError.self) { try decode(bytes) }
            }
        }
    }

    @Test("bit flips in a real key never crash a decoder", arguments: ["rsa1024.pkcs8.der", "rsa1024.spki.der"])
    func bitFlips(file: String) throws {
        let der = try DERFixtures.bytes(file)
        for index in stride(from: 0, to: der.count, by: 3) {
            var damaged = der
            damaged[index] ^= 0x80
            for (_, decode) in Self.decoders {
                do { try decode(damaged) } catch is KeyError {} catch { Issue.record("unexpected error type \(error)") }
            }
        }
    }
}
