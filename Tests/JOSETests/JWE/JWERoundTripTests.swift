import AsymmetricKeys
import CofferJSON
import CryptoOpenSSL
import JOSE
import Testing

@Suite("JWE: every algorithm round-trips")
struct JWERoundTripTests {
    /// A recipient key of each kind, made once.
    static let rsa = try! JOSEKey(PrivateKey.generate(.rsa, bits: 2048))
    static let curves: [(String, PrivateKey)] = [
        ("P-256", try! PrivateKey.generate(.ec, curve: .p256)), ("P-384", try! PrivateKey.generate(.ec, curve: .p384)),
        ("P-521", try! PrivateKey.generate(.ec, curve: .p521)), ("X25519", try! PrivateKey.generate(.x25519)),
        ("X448", try! PrivateKey.generate(.x448)),
    ]
    static let plaintext = Array("The true sign of intelligence is not knowledge but imagination.".utf8)

    static func secret(_ count: Int) -> JOSEKey {
        JOSEKey(secret: SecureBytes((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
    }

    /// Encrypts and decrypts in the compact and the flattened JSON serializations.
    static func roundTrip(_ recipient: JWERecipient, decryptWith key: JOSEKey?, passphrase: SecureBytes? = nil,
                          encryption: ContentEncryptionAlgorithm) throws {
        let message = try JWE.encrypt(plaintext, to: recipient, encryption: encryption)
        for text in [try message.compactSerialization(), try message.jsonSerialization(flattened: true), try message.jsonSerialization()] {
            let parsed = try JWEMessage(parsing: Array(text.utf8))
            let result = try key.map { try parsed.decrypt(with: $0) } ?? parsed.decrypt(passphrase: passphrase!)
            #expect(result.plaintext == plaintext, "\(recipient.algorithm.rawValue) \(encryption.rawValue)")
            #expect(result.keyManagementAlgorithm == recipient.algorithm)
            #expect(result.contentEncryptionAlgorithm == encryption)
        }
    }

    @Test("RSA-OAEP and RSA-OAEP-256", arguments: ContentEncryptionAlgorithm.allCases)
    func rsaOAEP(encryption: ContentEncryptionAlgorithm) throws {
        for algorithm in [KeyManagementAlgorithm.rsaOAEP, .rsaOAEP256] {
            let publicKey = JOSEKey(try Self.rsa.publicKey())
            try Self.roundTrip(JWERecipient(key: publicKey, algorithm: algorithm), decryptWith: Self.rsa, encryption: encryption)
        }
    }

    @Test("ECDH-ES and ECDH-ES+A128KW/A192KW/A256KW on P-256, P-384, P-521, X25519, X448", arguments: 0..<5)
    func ecdh(curve: Int) throws {
        let (_, privateKey) = Self.curves[curve]
        let recipientKey = JOSEKey(try privateKey.publicKey())
        for algorithm in [KeyManagementAlgorithm.ecdhES, .ecdhESA128KW, .ecdhESA192KW, .ecdhESA256KW] {
            for encryption in [ContentEncryptionAlgorithm.a128GCM, .a256CBCHS512] {
                try Self.roundTrip(JWERecipient(key: recipientKey, algorithm: algorithm, agreementPartyUInfo: Array("Alice".utf8),
                                                agreementPartyVInfo: Array("Bob".utf8)),
                                   decryptWith: JOSEKey(privateKey), encryption: encryption)
            }
        }
    }

    @Test("AES key wrap and AES-GCM key wrap with each key size", arguments: ContentEncryptionAlgorithm.allCases)
    func keyWrap(encryption: ContentEncryptionAlgorithm) throws {
        for (algorithm, size) in [(KeyManagementAlgorithm.a128KW, 16), (.a192KW, 24), (.a256KW, 32),
                                  (.a128GCMKW, 16), (.a192GCMKW, 24), (.a256GCMKW, 32)] {
            let key = Self.secret(size)
            try Self.roundTrip(JWERecipient(key: key, algorithm: algorithm), decryptWith: key, encryption: encryption)
        }
    }

    @Test("dir with a key of each content algorithm's size", arguments: ContentEncryptionAlgorithm.allCases)
    func direct(encryption: ContentEncryptionAlgorithm) throws {
        let key = Self.secret(encryption.keySize)
        try Self.roundTrip(JWERecipient(key: key, algorithm: .direct), decryptWith: key, encryption: encryption)
    }

    @Test("PBES2-HS256+A128KW, PBES2-HS384+A192KW, PBES2-HS512+A256KW")
    func pbes2() throws {
        let passphrase = SecureBytes(Array("correct horse battery staple".utf8))
        for algorithm in [KeyManagementAlgorithm.pbes2HS256A128KW, .pbes2HS384A192KW, .pbes2HS512A256KW] {
            try Self.roundTrip(JWERecipient(passphrase: passphrase, algorithm: algorithm, iterations: 1000),
                               decryptWith: nil, passphrase: passphrase, encryption: .a128CBCHS256)
        }
    }

    @Test("zip: DEF compresses before encrypting and inflates after decrypting")
    func compression() throws {
        let key = Self.secret(16)
        let repetitive = Array(String(repeating: "all work and no play makes jack a dull boy. ", count: 200).utf8)
        let message = try JWE.encrypt(repetitive, to: JWERecipient(key: key, algorithm: .a128KW), encryption: .a128GCM,
                                      options: JWEEncryptionOptions(compression: .deflate))
        #expect(message.ciphertext.count < repetitive.count / 10)
        #expect(message.protectedHeader?.header.compression == "DEF")
        let result = try JWEMessage(compact: try message.compactSerialization()).decrypt(with: key)
        #expect(result.plaintext == repetitive)
    }

    @Test("several recipients, a shared unprotected header and a JWE AAD (general JSON)")
    func severalRecipients() throws {
        var aliceAttributes = KeyAttributes()
        aliceAttributes.keyID = "alice"
        let alice = JOSEKey(try PrivateKey.generate(.ec, curve: .p384), attributes: aliceAttributes)
        var bobAttributes = KeyAttributes()
        bobAttributes.keyID = "bob"
        let bob = JOSEKey(secret: Self.secret(32).secret!, attributes: bobAttributes)
        let passphrase = SecureBytes(Array("hunter2 hunter2".utf8))
        var shared = JOSEHeader()
        shared.contentType = "text/plain"
        let recipients = [
            JWERecipient(key: JOSEKey(try alice.publicKey(), attributes: aliceAttributes), algorithm: .ecdhESA256KW),
            JWERecipient(key: bob, algorithm: .a256GCMKW),
            JWERecipient(key: JOSEKey(try Self.rsa.publicKey()), algorithm: .rsaOAEP256),
            JWERecipient(passphrase: passphrase, algorithm: .pbes2HS256A128KW, iterations: 2000),
        ]
        let aad = Array("not secret, but bound".utf8)
        let message = try JWE.encrypt(Self.plaintext, to: recipients, encryption: .a192CBCHS384,
                                      options: JWEEncryptionOptions(sharedUnprotectedHeader: shared, additionalAuthenticatedData: aad))
        #expect(message.recipients.count == 4)
        #expect(message.recipients.allSatisfy { $0.header?.algorithm != nil })
        #expect(throws: JOSEError(.malformed, "")) { try message.compactSerialization() }
        let json = Array(try message.jsonSerialization().utf8)
        let parsed = try JWEMessage(json: json)
        let byAlice = try parsed.decrypt(with: alice)
        #expect(byAlice.plaintext == Self.plaintext)
        #expect(byAlice.recipientIndex == 0)
        #expect(byAlice.additionalAuthenticatedData == aad)
        #expect(byAlice.header.contentType == "text/plain")
        #expect(try parsed.decrypt(with: bob).recipientIndex == 1)
        #expect(try parsed.decrypt(with: Self.rsa).recipientIndex == 2)
        #expect(try parsed.decrypt(passphrase: passphrase).recipientIndex == 3)
        let set = JOSEKeySet([Self.secret(32), alice])
        let bySet = try parsed.decrypt(with: set)
        #expect(bySet.recipientIndex == 0)
        #expect(bySet.key?.keyID == "alice")
        // The AAD is authenticated: another one fails.
        var altered = parsed
        altered.additionalAuthenticatedData = Array("bound to something else".utf8)
        #expect(throws: JOSEError(.decryptionFailed, "")) { try altered.decrypt(with: bob) }
    }

    @Test("dir and ECDH-ES decide the CEK, so they are refused among several recipients")
    func directAmongSeveral() {
        let key = Self.secret(16)
        #expect(throws: JOSEError(.algorithmNotAllowed, "")) {
            try JWE.encrypt(Self.plaintext, to: [JWERecipient(key: key, algorithm: .direct), JWERecipient(key: key, algorithm: .a128KW)],
                            encryption: .a128GCM)
        }
    }
}

@Suite("JWE: the algorithms a key prefers")
struct JWEPreferredAlgorithmTests {
    @Test("each kind of key names an algorithm that then round-trips")
    func preferred() throws {
        let rsa = try JOSEKey(PrivateKey.generate(.rsa, bits: 2048))
        let ec = try JOSEKey(PrivateKey.generate(.ec, curve: .p384))
        let x448 = try JOSEKey(PrivateKey.generate(.x448))
        let ed25519 = try JOSEKey(PrivateKey.generate(.ed25519))
        #expect(rsa.preferredKeyManagementAlgorithm == .rsaOAEP256)
        #expect(ec.preferredKeyManagementAlgorithm == .ecdhESA256KW)
        #expect(x448.preferredKeyManagementAlgorithm == .ecdhESA256KW)
        #expect(ed25519.preferredKeyManagementAlgorithm == nil)
        for (size, algorithm) in [(16, KeyManagementAlgorithm.a128KW), (24, .a192KW), (32, .a256KW), (48, .direct), (64, .direct)] {
            let key = JWERoundTripTests.secret(size)
            #expect(key.preferredKeyManagementAlgorithm == algorithm, "\(size) bytes")
        }
        #expect(JWERoundTripTests.secret(64).preferredContentEncryption(for: .direct) == .a256CBCHS512)
        #expect(JWERoundTripTests.secret(20).preferredKeyManagementAlgorithm == nil)
        let contentKey = JOSEKey(secret: SecureBytes([UInt8](repeating: 1, count: 32)), attributes: KeyAttributes(algorithm: "A128CBC-HS256"))
        #expect(contentKey.preferredKeyManagementAlgorithm == .direct)
        #expect(contentKey.preferredContentEncryption(for: .direct) == .a128CBCHS256)
        for key in [rsa, ec, x448, JWERoundTripTests.secret(48), contentKey] {
            let algorithm = try require(key.preferredKeyManagementAlgorithm)
            let encryption = key.preferredContentEncryption(for: algorithm)
            let recipientKey = key.asymmetricKey == nil ? key : JOSEKey(try key.publicKey())
            let token = try JWE.encrypt(JWERoundTripTests.plaintext, to: JWERecipient(key: recipientKey, algorithm: algorithm),
                                        encryption: encryption).compactSerialization()
            #expect(try JWEMessage(compact: token).decrypt(with: key).plaintext == JWERoundTripTests.plaintext)
        }
    }
}
