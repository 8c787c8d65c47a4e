import CofferTestSupport
import Testing

@testable import CryptoOpenSSL

@Suite("AES-CFB128 stream")
struct AESCFBStreamTests {
    static let nistPlaintext = TestHex.bytes("""
        6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51
        30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710
        """)
    static let nistIV = TestHex.bytes("000102030405060708090a0b0c0d0e0f")

    /// NIST SP 800-38A F.3.13 (CFB128-AES128.Encrypt) and F.3.17 (CFB128-AES256.Encrypt).
    static let nistVectors: [(AESKeySize, String, String)] = [
        (.aes128, "2b7e151628aed2a6abf7158809cf4f3c",
         "3b3fd92eb72dad20333449f8e83cfb4a c8a64537a0b3a93fcde3cdad9f1ce58b 26751f67a3cbb140b1808cf187a4f4df c04b05357c5d1c0eeac4c66f9ff7f2e6"),
        (.aes256, "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
         "dc7e84bfda79164b7ecd8486985d3860 39ffed143b28b1c832113c6331e5407b df10132415e54b92a13ed0a8267ae2f9 75a385741ab9cef82031623d55b1e471"),
    ]

    @Test("NIST SP 800-38A vectors, with the key as an array and as SecureBytes", arguments: 0..<2)
    func nist(index: Int) {
        let (size, key, expected) = Self.nistVectors[index]
        var encryptor = AESCFBStream(key: TestHex.bytes(key), iv: Self.nistIV, keySize: size)
        let ciphertext = encryptor.encrypt(Self.nistPlaintext)
        #expect(TestHex.string(ciphertext) == TestHex.string(TestHex.bytes(expected)))
        var secureEncryptor = AESCFBStream(key: SecureBytes(TestHex.bytes(key)), iv: Self.nistIV, keySize: size)
        #expect(secureEncryptor.encrypt(Self.nistPlaintext) == ciphertext)
        var decryptor = AESCFBStream(key: SecureBytes(TestHex.bytes(key)), iv: Self.nistIV, keySize: size)
        #expect(decryptor.decrypt(ciphertext) == Self.nistPlaintext)
    }

    @Test("splitting the input anywhere gives the same stream", arguments: [AESKeySize.aes128, .aes256])
    func splits(size: AESKeySize) {
        var random = SplitMix64(UInt64(size.rawValue))
        let key = random.bytes(size.rawValue)
        let iv = random.bytes(16)
        let plaintext = random.bytes(5000)
        var whole = AESCFBStream(key: key, iv: iv, keySize: size)
        let expected = whole.encrypt(plaintext)
        for round in 0..<20 {
            var encryptor = AESCFBStream(key: key, iv: iv, keySize: size)
            var decryptor = AESCFBStream(key: key, iv: iv, keySize: size)
            var ciphertext: [UInt8] = []
            var recovered: [UInt8] = []
            var offset = 0
            while offset < plaintext.count {
                let length = min(plaintext.count - offset, round == 0 ? 1 : random.below(round * 40 + 1))
                let piece = Array(plaintext[offset..<offset + length])
                let encrypted = encryptor.encrypt(piece)
                ciphertext += encrypted
                recovered += decryptor.decrypt(encrypted)
                offset += length
            }
            #expect(ciphertext == expected)
            #expect(recovered == plaintext)
        }
    }

    @Test("a copy is an independent snapshot of the stream state")
    func snapshot() {
        var random = SplitMix64(7)
        let key = random.bytes(16)
        let iv = random.bytes(16)
        let head = random.bytes(21)
        let body = random.bytes(37)
        var stream = AESCFBStream(key: key, iv: iv, keySize: .aes128)
        let encryptedHead = stream.encrypt(head)
        let saved = stream
        let encryptedBody = stream.encrypt(body)
        // The original moved on; the saved copy must still continue from where it was copied.
        var rolledBack = saved
        #expect(rolledBack.encrypt(body) == encryptedBody)
        var reference = AESCFBStream(key: key, iv: iv, keySize: .aes128)
        #expect(reference.encrypt(head + body) == encryptedHead + encryptedBody)
        // And the original is not affected by what the copy did.
        var next = saved
        _ = next.encrypt(random.bytes(5))
        #expect(stream.encrypt(body) == rolledBack.encrypt(body))
    }

    @Test("matches `openssl enc -aes-*-cfb` on random data", arguments: [AESKeySize.aes128, .aes256])
    func openSSLInterop(size: AESKeySize) throws {
        var random = SplitMix64(99 + UInt64(size.rawValue))
        let key = random.bytes(size.rawValue)
        let iv = random.bytes(16)
        let plaintext = random.bytes(70_001)
        let name = size == .aes128 ? "-aes-128-cfb" : "-aes-256-cfb"
        let expected = try OpenSSLTool.run(["enc", name, "-K", TestHex.string(key), "-iv", TestHex.string(iv)], input: plaintext)
        var stream = AESCFBStream(key: key, iv: iv, keySize: size)
        #expect(stream.encrypt(plaintext) == expected)
        var decryptor = AESCFBStream(key: key, iv: iv, keySize: size)
        #expect(decryptor.decrypt(expected) == plaintext)
    }

    @Test("empty input leaves the stream unchanged")
    func empty() {
        var stream = AESCFBStream(key: [UInt8](repeating: 1, count: 16), iv: [UInt8](repeating: 2, count: 16), keySize: .aes128)
        var untouched = stream
        #expect(stream.encrypt([]) == [])
        #expect(stream.encrypt([1, 2, 3]) == untouched.encrypt([1, 2, 3]))
    }
}
