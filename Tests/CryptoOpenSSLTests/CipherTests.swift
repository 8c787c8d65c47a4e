import CofferErrors
import CofferTestSupport
import Testing

@testable import CryptoOpenSSL

@Suite("Symmetric ciphers")
struct CipherTests {
    static let unauthenticated = SymmetricCipher.allCases.filter { !$0.isAuthenticated }

    static func encName(_ cipher: SymmetricCipher) -> String {
        "-" + cipher.rawValue.lowercased()
    }

    static func encArguments(_ cipher: SymmetricCipher, key: [UInt8], iv: [UInt8], decrypt: Bool, padding: Bool) -> [String] {
        var arguments = ["enc", encName(cipher), "-K", TestHex.string(key)]
        if !iv.isEmpty { arguments += ["-iv", TestHex.string(iv)] }
        if decrypt { arguments.append("-d") }
        if !padding { arguments.append("-nopad") }
        if [.desCBC, .rc2_40CBC, .rc2CBC].contains(cipher) { arguments += ["-provider", "legacy", "-provider", "default"] }
        return arguments
    }

    @Test("matches `openssl enc` in both directions", arguments: unauthenticated)
    func interop(cipher: SymmetricCipher) throws {
        var random = SplitMix64(UInt64(cipher.hashValue & 0xffff))
        let key = random.bytes(cipher.keySize)
        let iv = random.bytes(cipher.ivSize)
        for length in [0, 1, cipher.blockSize, 1000, 4099] {
            let plaintext = random.bytes(length)
            let expected = try OpenSSLTool.run(Self.encArguments(cipher, key: key, iv: iv, decrypt: false, padding: true), input: plaintext)
            let ciphertext = try Cipher.encrypt(cipher, key: key, iv: iv, plaintext)
            #expect(ciphertext == expected, "\(cipher) \(length)")
            #expect(try Cipher.decrypt(cipher, key: key, iv: iv, ciphertext) == plaintext)
        }
        // Without padding, on whole blocks.
        let blocks = random.bytes(cipher.blockSize * 5 + (cipher.blockSize == 1 ? 3 : 0))
        let expected = try OpenSSLTool.run(Self.encArguments(cipher, key: key, iv: iv, decrypt: false, padding: false), input: blocks)
        let ciphertext = try Cipher.encrypt(cipher, key: key, iv: iv, blocks, padding: false)
        #expect(ciphertext == expected)
        #expect(ciphertext.count == blocks.count)
        let back = try OpenSSLTool.run(Self.encArguments(cipher, key: key, iv: iv, decrypt: true, padding: false), input: ciphertext)
        #expect(try Cipher.decrypt(cipher, key: key, iv: iv, ciphertext, padding: false) == back)
        #expect(back == blocks)
    }

    @Test("streaming in pieces equals one shot", arguments: [SymmetricCipher.aes256CBC, .aes128CTR, .desEDE3CBC, .aes192CFB])
    func streaming(cipher: SymmetricCipher) throws {
        var random = SplitMix64(11)
        let key = random.bytes(cipher.keySize)
        let iv = random.bytes(cipher.ivSize)
        let plaintext = random.bytes(3001)
        let oneShot = try Cipher.encrypt(cipher, key: key, iv: iv, plaintext)
        let encryptor = try CipherStream(cipher: cipher, key: key, iv: iv, decrypting: false)
        let decryptor = try CipherStream(cipher: cipher, key: key, iv: iv, decrypting: true)
        var ciphertext: [UInt8] = []
        var recovered: [UInt8] = []
        var offset = 0
        while offset < plaintext.count {
            let length = min(plaintext.count - offset, random.below(97))
            let piece = try encryptor.update(Array(plaintext[offset..<offset + length]))
            ciphertext += piece
            recovered += try decryptor.update(piece)
            offset += length
        }
        let last = try encryptor.finish()
        ciphertext += last
        recovered += try decryptor.update(last)
        recovered += try decryptor.finish()
        #expect(ciphertext == oneShot)
        #expect(recovered == plaintext)
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) { try encryptor.update([1]) }
    }

    @Test("a wrong key is a bad decrypt with the OpenSSL queue")
    func wrongKey() throws {
        var random = SplitMix64(12)
        let key = random.bytes(32)
        let iv = random.bytes(16)
        let ciphertext = try Cipher.encrypt(.aes256CBC, key: key, iv: iv, Array("attack at dawn, bring snacks".utf8))
        var wrong = key
        wrong[0] ^= 1
        // A 1/256 chance exists that wrong-key output still has valid padding; this key is fixed and does not.
        let error = try #require(throws: CryptoError.self) {
            try Cipher.decrypt(.aes256CBC, key: wrong, iv: iv, ciphertext)
        }
        #expect(error.code == .badDecrypt)
        #expect(error.operation == "EVP_CipherFinal_ex")
        #expect(!error.openSSLErrors.isEmpty)
        #expect(error.openSSLErrors.joined().contains("bad decrypt"))
        #expect(error.description.hasPrefix("EVP_CipherFinal_ex: bad decrypt"))
        #expect(error.description.contains("[OpenSSL: "))
    }

    @Test("argument checks")
    func arguments() throws {
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try Cipher.encrypt(.aes128CBC, key: [UInt8](repeating: 0, count: 15), iv: [UInt8](repeating: 0, count: 16), [1])
        }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try Cipher.encrypt(.aes128CBC, key: [UInt8](repeating: 0, count: 16), iv: [UInt8](repeating: 0, count: 8), [1])
        }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try Cipher.encrypt(.aes128CBC, key: [UInt8](repeating: 0, count: 16), iv: [UInt8](repeating: 0, count: 16), [1, 2, 3], padding: false)
        }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try Cipher.encrypt(.aes128GCM, key: [UInt8](repeating: 0, count: 16), iv: [UInt8](repeating: 0, count: 12), [1])
        }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try Cipher.sealGCM(.aes128CBC, key: [UInt8](repeating: 0, count: 16), iv: [UInt8](repeating: 0, count: 16), [1])
        }
    }

    @Test("key, IV and block sizes agree with the fetched EVP_CIPHER", arguments: SymmetricCipher.allCases)
    func sizes(cipher: SymmetricCipher) throws {
        let reported = try cipher.openSSLReportedSizes()
        #expect(reported.key == cipher.keySize)
        #expect(reported.iv == cipher.ivSize)
        #expect(reported.block == cipher.blockSize)
        #expect(cipher.isAuthenticated == cipher.rawValue.hasSuffix("GCM"))
    }
}

@Suite("AES-GCM")
struct GCMTests {
    /// The GCM specification (McGrew & Viega), test cases 1, 2 and 4.
    @Test("known answers from the GCM specification")
    func vectors() throws {
        let zeroKey = [UInt8](repeating: 0, count: 16)
        let zeroIV = [UInt8](repeating: 0, count: 12)
        let case1 = try Cipher.sealGCM(.aes128GCM, key: zeroKey, iv: zeroIV, [])
        #expect(case1.ciphertext.isEmpty)
        #expect(TestHex.string(case1.tag) == "58e2fccefa7e3061367f1d57a4e7455a")
        let case2 = try Cipher.sealGCM(.aes128GCM, key: zeroKey, iv: zeroIV, [UInt8](repeating: 0, count: 16))
        #expect(TestHex.string(case2.ciphertext) == "0388dace60b6a392f328c2b971b2fe78")
        #expect(TestHex.string(case2.tag) == "ab6e47d42cec13bdf53a67b21257bddf")

        let key = TestHex.bytes("feffe9928665731c6d6a8f9467308308")
        let iv = TestHex.bytes("cafebabefacedbaddecaf888")
        let plaintext = TestHex.bytes("""
            d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72
            1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39
            """)
        let aad = TestHex.bytes("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let sealed = try Cipher.sealGCM(.aes128GCM, key: key, iv: iv, plaintext, aad: aad)
        #expect(TestHex.string(sealed.ciphertext) == """
            42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e\
            21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091
            """)
        #expect(TestHex.string(sealed.tag) == "5bc94fbc3221a5db94fae95ae7121a47")
        #expect(try Cipher.openGCM(.aes128GCM, key: key, iv: iv, sealed.ciphertext, tag: sealed.tag, aad: aad) == plaintext)
    }

    @Test("tampering with ciphertext, tag, AAD or key fails authentication", arguments: [SymmetricCipher.aes128GCM, .aes192GCM, .aes256GCM])
    func tamper(cipher: SymmetricCipher) throws {
        var random = SplitMix64(21)
        let key = random.bytes(cipher.keySize)
        let iv = random.bytes(12)
        let aad = random.bytes(20)
        let plaintext = random.bytes(777)
        let sealed = try Cipher.sealGCM(cipher, key: key, iv: iv, plaintext, aad: aad)
        #expect(try Cipher.openGCM(cipher, key: key, iv: iv, sealed.ciphertext, tag: sealed.tag, aad: aad) == plaintext)
        var badCiphertext = sealed.ciphertext
        badCiphertext[400] ^= 0x80
        var badTag = sealed.tag
        badTag[15] ^= 1
        var badKey = key
        badKey[3] ^= 4
        let attempts: [() throws -> [UInt8]] = [
            { try Cipher.openGCM(cipher, key: key, iv: iv, badCiphertext, tag: sealed.tag, aad: aad) },
            { try Cipher.openGCM(cipher, key: key, iv: iv, sealed.ciphertext, tag: badTag, aad: aad) },
            { try Cipher.openGCM(cipher, key: key, iv: iv, sealed.ciphertext, tag: sealed.tag, aad: []) },
            { try Cipher.openGCM(cipher, key: badKey, iv: iv, sealed.ciphertext, tag: sealed.tag, aad: aad) },
        ]
        for attempt in attempts {
            let error = try #require(throws: CryptoError.self) { try attempt() }
            #expect(error.code == .authenticationFailed)
        }
    }

    @Test("non-standard IV length and truncated tag round-trip")
    func lengths() throws {
        var random = SplitMix64(22)
        let key = random.bytes(32)
        let iv = random.bytes(16)
        let sealed = try Cipher.sealGCM(.aes256GCM, key: key, iv: iv, Array("hello".utf8), tagLength: 12)
        #expect(sealed.tag.count == 12)
        #expect(try Cipher.openGCM(.aes256GCM, key: key, iv: iv, sealed.ciphertext, tag: sealed.tag) == Array("hello".utf8))
        // The streaming interface: AAD after data is refused; the tag is known only after finish.
        let stream = try CipherStream(cipher: .aes256GCM, key: key, iv: iv, decrypting: false)
        _ = try stream.update([1, 2, 3])
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) { try stream.setAAD([9]) }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) { try stream.tag() }
        _ = try stream.finish()
        #expect(try stream.tag().count == 16)
    }
}
