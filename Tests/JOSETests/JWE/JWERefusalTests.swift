import AsymmetricKeys
import CofferJSON
import CryptoOpenSSL
import JOSE
import Testing

/// The refusals issue 36 asks of a JWE reader, one test each.
@Suite("JWE: refusals")
struct JWERefusalTests {
    static let plaintext = Array("attack at dawn".utf8)

    /// `message` with its protected header replaced by `header` (the rest unchanged).
    static func withHeader(_ message: JWEMessage, _ edit: (inout JOSEHeader) -> Void) -> JWEMessage {
        var header = message.protectedHeader!.header
        edit(&header)
        var altered = message
        altered.protectedHeader = ProtectedHeader(header)
        return altered
    }

    static func ecdhMessage(to key: PrivateKey, algorithm: KeyManagementAlgorithm = .ecdhES) throws -> JWEMessage {
        try JWE.encrypt(plaintext, to: JWERecipient(key: JOSEKey(try key.publicKey()), algorithm: algorithm), encryption: .a128GCM)
    }

    @Test("an ECDH-ES ephemeral key that is not on the curve")
    func epkOffTheCurve() throws {
        let key = try PrivateKey.generate(.ec, curve: .p256)
        let message = try Self.ecdhMessage(to: key, algorithm: .ecdhESA128KW)
        let altered = Self.withHeader(message) { header in
            guard case .object(var members)? = header.ephemeralPublicKey, let y = members.firstIndex(where: { $0.name == "y" }),
                  case .string(let text) = members[y].value else { return }
            var bytes = try! TestBase64URL.decode(text)
            bytes[bytes.count - 1] ^= 0x01
            members[y].value = .string(TestBase64URL.encode(bytes))
            header.ephemeralPublicKey = .object(members)
        }
        let error = #expect(throws: JOSEError.self) { try altered.decrypt(with: JOSEKey(key)) }
        #expect(error?.code == .invalidKey)
        #expect(error?.reason.contains("epk") == true)
    }

    @Test("an ECDH-ES ephemeral key on another curve than the recipient's key")
    func epkOtherCurve() throws {
        let key = try PrivateKey.generate(.ec, curve: .p256)
        let other = try PrivateKey.generate(.ec, curve: .p384)
        let message = try Self.ecdhMessage(to: key)
        let otherEPK = try JSONWebKey(key: .publicKey(try other.publicKey())).json(includePrivate: false)
        let altered = Self.withHeader(message) { $0.ephemeralPublicKey = otherEPK }
        let error = #expect(throws: JOSEError.self) { try altered.decrypt(with: JOSEKey(key)) }
        #expect(error?.code == .invalidKey)
        #expect(error?.reason.contains("P-384") == true)
    }

    @Test("a low-order X25519 ephemeral point (all-zero shared secret)", arguments: [0, 1])
    func lowOrderX25519(point: Int) throws {
        let key = try PrivateKey.generate(.x25519)
        let message = try Self.ecdhMessage(to: key)
        // u = 0 and u = 1 are points of order dividing 8: X25519 with them gives an all-zero secret.
        var u = [UInt8](repeating: 0, count: 32)
        u[0] = UInt8(point)
        let altered = Self.withHeader(message) {
            $0.ephemeralPublicKey = JSONValue(object: [("kty", .string("OKP")), ("crv", .string("X25519")), ("x", .string(TestBase64URL.encode(u)))])
        }
        let error = #expect(throws: JOSEError.self) { try altered.decrypt(with: JOSEKey(key)) }
        #expect(error?.code == .invalidKey)
    }

    @Test("a PBES2 count above the cap fails before any work, naming the cap and its option")
    func pbes2CountAboveCap() throws {
        let passphrase = SecureBytes(Array("Thus from my lips, by yours, my sin is purged.".utf8))
        let message = try JWE.encrypt(Self.plaintext, to: JWERecipient(passphrase: passphrase, algorithm: .pbes2HS256A128KW, iterations: 1000),
                                      encryption: .a128GCM)
        let hostile = Self.withHeader(message) { $0.pbes2Count = Int(Int32.max) }
        let clock = ContinuousClock()
        let start = clock.now
        let error = #expect(throws: JOSEError.self) { try hostile.decrypt(passphrase: passphrase) }
        // 2^31 iterations of PBKDF2 would take many minutes: failing at once shows none ran.
        #expect(clock.now - start < .seconds(1))
        #expect(error?.code == .costTooHigh)
        #expect(error?.reason.contains("JOSELimits.maximumPBES2Iterations") == true)
        #expect(error?.reason.contains("1000000") == true)
        // The cap is the caller's: below the token's count it refuses, raised it decrypts.
        let tight = JWEDecryptionOptions(limits: JOSELimits(maximumPBES2Iterations: 999))
        #expect(throws: JOSEError(.costTooHigh, "")) { try message.decrypt(passphrase: passphrase, options: tight) }
        #expect(try message.decrypt(passphrase: passphrase).plaintext == Self.plaintext)
    }

    @Test("a zip: DEF plaintext that inflates past the cap stops with tooLarge")
    func zipBomb() throws {
        let key = JOSEKey(secret: SecureBytes([UInt8](repeating: 7, count: 16)))
        let bomb = [UInt8](repeating: 0, count: 8 << 20)
        let message = try JWE.encrypt(bomb, to: JWERecipient(key: key, algorithm: .a128KW), encryption: .a128GCM,
                                      options: JWEEncryptionOptions(compression: .deflate))
        // About 8 KiB of ciphertext: 250 times that is far below the 8 MiB it inflates to.
        #expect(message.ciphertext.count < 16 << 10)
        let error = #expect(throws: JOSEError.self) { try message.decrypt(with: key) }
        #expect(error?.code == .tooLarge)
        #expect(error?.reason.contains("JOSELimits") == true)
        let absolute = JWEDecryptionOptions(limits: JOSELimits(maximumDecompressedSize: 1 << 20, maximumCompressionRatio: 100_000))
        let capped = #expect(throws: JOSEError.self) { try message.decrypt(with: key, options: absolute) }
        #expect(capped?.reason.contains("JOSELimits.maximumDecompressedSize") == true)
        let generous = JWEDecryptionOptions(limits: JOSELimits(maximumCompressionRatio: 100_000))
        #expect(try message.decrypt(with: key, options: generous).plaintext.count == bomb.count)
    }

    @Test("RSA1_5 without allowRSA1_5")
    func rsa1_5WithoutFlag() throws {
        let example = try CookbookJWECase(path: "cookbook/jwe/5_1.key_encryption_using_rsa_v15_and_aes-hmac-sha2.json")
        let compact = try require(example.outputs.first { $0.name == "compact" }?.text, "compact")
        let error = #expect(throws: JOSEError.self) { try JWEMessage(compact: compact).decrypt(with: example.keys[0]) }
        #expect(error?.code == .algorithmNotAllowed)
        #expect(error?.reason.contains("allowRSA1_5") == true)
        // And JOSE never encrypts with it.
        #expect(throws: JOSEError(.unsupportedAlgorithm, "")) {
            try JWE.encrypt(Self.plaintext, to: JWERecipient(key: example.keys[0], algorithm: .rsa1_5), encryption: .a128GCM)
        }
    }

    @Test("an unknown crit member; a crit member the caller understands is accepted")
    func unknownCritical() throws {
        let key = JOSEKey(secret: SecureBytes([UInt8](repeating: 9, count: 32)))
        var header = JOSEHeader()
        header.setMember("exp", .number("1363284000"))
        header.critical = ["exp"]
        let message = try JWE.encrypt(Self.plaintext, to: JWERecipient(key: key, algorithm: .a256KW), encryption: .a256GCM,
                                      options: JWEEncryptionOptions(protectedHeader: header))
        #expect(throws: JOSEError(.unknownCriticalHeader, "")) { try message.decrypt(with: key) }
        let understood = JWEDecryptionOptions(understoodCriticalHeaders: ["exp"])
        #expect(try message.decrypt(with: key, options: understood).plaintext == Self.plaintext)
    }

    @Test("a tampered authentication tag", arguments: ContentEncryptionAlgorithm.allCases)
    func tamperedTag(encryption: ContentEncryptionAlgorithm) throws {
        let key = JOSEKey(secret: SecureBytes([UInt8](repeating: 3, count: encryption.keySize)))
        var message = try JWE.encrypt(Self.plaintext, to: JWERecipient(key: key, algorithm: .direct), encryption: encryption)
        message.authenticationTag[0] ^= 0x80
        #expect(throws: JOSEError(.decryptionFailed, "")) { try message.decrypt(with: key) }
        message.authenticationTag[0] ^= 0x80
        message.authenticationTag.removeLast()
        #expect(throws: JOSEError(.decryptionFailed, "")) { try message.decrypt(with: key) }
    }

    @Test("an oversized token is refused before it is parsed")
    func oversizedToken() {
        let limits = JOSELimits(maximumTokenSize: 4096)
        let garbage = String(repeating: "!", count: 4097)
        #expect(throws: JOSEError(.tooLarge, "")) { try JWEMessage(compact: garbage, limits: limits) }
        #expect(throws: JOSEError(.tooLarge, "")) { try JWEMessage(json: Array(garbage.utf8), limits: limits) }
        #expect(throws: JOSEError(.tooLarge, "")) { try JWEMessage(parsing: Array(garbage.utf8), limits: limits) }
        // Within the cap the same text is merely malformed.
        #expect(throws: JOSEError(.malformed, "")) { try JWEMessage(compact: String(garbage.dropLast()), limits: limits) }
    }

    @Test("the key decides the algorithm: a header alg the key does not allow")
    func algorithmTheKeyDoesNotAllow() throws {
        let aes128 = JOSEKey(secret: SecureBytes([UInt8](repeating: 5, count: 16)), attributes: KeyAttributes(algorithm: "A128KW"))
        let message = try JWE.encrypt(Self.plaintext, to: JWERecipient(key: JOSEKey(secret: aes128.secret!), algorithm: .a128GCMKW), encryption: .a128GCM)
        #expect(throws: JOSEError(.algorithmNotAllowed, "")) { try message.decrypt(with: aes128) }
        // An RSA key is never a dir or AES key; a 16-byte secret is not an A256KW key.
        let rsa = try JOSEKey(PrivateKey.generate(.rsa, bits: 2048))
        #expect(throws: JOSEError(.algorithmNotAllowed, "")) { try rsa.checkAllows(.direct, encryption: .a128GCM) }
        #expect(throws: JOSEError(.algorithmNotAllowed, "")) { try JOSEKey(secret: aes128.secret!).checkAllows(.a256KW, encryption: .a128GCM) }
        #expect(JOSEKey(secret: aes128.secret!).allowedKeyManagementAlgorithms(encryption: .a128GCM) == [.a128KW, .a128GCMKW, .direct])
        // The caller narrows further.
        let onlyGCMKW = JWEDecryptionOptions(keyManagementAlgorithms: [.a128GCMKW])
        let kwMessage = try JWE.encrypt(Self.plaintext, to: JWERecipient(key: aes128, algorithm: .a128KW), encryption: .a128GCM)
        #expect(throws: JOSEError(.algorithmNotAllowed, "")) { try kwMessage.decrypt(with: aes128, options: onlyGCMKW) }
    }

    @Test("a header member in both the protected and an unprotected header; zip unprotected")
    func duplicateAndUnprotectedMembers() throws {
        let key = JOSEKey(secret: SecureBytes([UInt8](repeating: 1, count: 16)))
        let message = try JWE.encrypt(Self.plaintext, to: JWERecipient(key: key, algorithm: .a128KW), encryption: .a128GCM)
        var duplicated = message
        var shared = JOSEHeader()
        shared.encryption = "A128GCM"
        duplicated.sharedUnprotectedHeader = shared
        #expect(throws: JOSEError(.malformed, "")) { try duplicated.decrypt(with: key) }
        var unprotectedZip = message
        var zip = JOSEHeader()
        zip.compression = "DEF"
        unprotectedZip.sharedUnprotectedHeader = zip
        #expect(throws: JOSEError(.malformed, "")) { try unprotectedZip.decrypt(with: key) }
    }

    @Test("a PBES2 salt input shorter than 8 bytes")
    func shortSalt() throws {
        let passphrase = SecureBytes(Array("a passphrase".utf8))
        let message = try JWE.encrypt(Self.plaintext, to: JWERecipient(passphrase: passphrase, algorithm: .pbes2HS256A128KW, iterations: 1000),
                                      encryption: .a128GCM)
        let short = Self.withHeader(message) { $0.pbes2Salt = TestBase64URL.encode([1, 2, 3, 4, 5, 6, 7]) }
        #expect(throws: JOSEError(.malformed, "")) { try short.decrypt(passphrase: passphrase) }
    }
}
