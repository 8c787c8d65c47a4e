import CofferErrors
import CofferTestSupport
import Foundation
import Testing

@testable import CryptoOpenSSL

@Suite("Key derivation")
struct KDFTests {
    /// RFC 6070 PBKDF2-HMAC-SHA1 vectors (the 16 777 216-iteration one is left out for time).
    static let rfc6070: [(String, String, Int, Int, String)] = [
        ("password", "salt", 1, 20, "0c60c80f961f0e71f3a9b524af6012062fe037a6"),
        ("password", "salt", 2, 20, "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"),
        ("password", "salt", 4096, 20, "4b007901b765489abead49d926f721d065a429c1"),
        ("passwordPASSWORDpassword", "saltSALTsaltSALTsaltSALTsaltSALTsalt", 4096, 25,
         "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038"),
        ("pass\0word", "sa\0lt", 4096, 16, "56fa6aa75548099dcc37d7f03425e0c3"),
    ]

    @Test("PBKDF2-HMAC-SHA1 (RFC 6070)", arguments: 0..<5)
    func pbkdf2(index: Int) throws {
        let (password, salt, iterations, length, expected) = Self.rfc6070[index]
        let key = try KDF.pbkdf2(password: Array(password.utf8), salt: Array(salt.utf8), iterations: iterations, digest: .sha1, keyLength: length)
        #expect(TestHex.string(key) == expected)
        let secure = try KDF.pbkdf2(password: SecureBytes(Array(password.utf8)), salt: Array(salt.utf8), iterations: iterations, digest: .sha1, keyLength: length)
        #expect(secure == key)
    }

    @Test("PBKDF2-HMAC-SHA256 matches `openssl kdf`")
    func pbkdf2Interop() throws {
        let expected = try OpenSSLTool.run([
            "kdf", "-keylen", "48", "-binary", "-kdfopt", "digest:SHA256", "-kdfopt", "pass:hunter2",
            "-kdfopt", "hexsalt:0011223344556677", "-kdfopt", "iter:1000", "PBKDF2",
        ])
        let key = try KDF.pbkdf2(password: Array("hunter2".utf8), salt: TestHex.bytes("0011223344556677"), iterations: 1000, digest: .sha256, keyLength: 48)
        #expect(key == expected)
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try KDF.pbkdf2(password: [1], salt: [2], iterations: 0, digest: .sha256, keyLength: 16)
        }
    }

    /// RFC 7914 section 12, the first two vectors.
    @Test("scrypt (RFC 7914)")
    func scrypt() throws {
        let first = try KDF.scrypt(password: [], salt: [], n: 16, r: 1, p: 1, keyLength: 64)
        #expect(TestHex.string(first) == """
            77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442\
            fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906
            """)
        let second = try KDF.scrypt(password: SecureBytes(Array("password".utf8)), salt: Array("NaCl".utf8), n: 1024, r: 8, p: 16, keyLength: 64)
        #expect(TestHex.string(second) == """
            fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162\
            2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640
            """)
    }

    @Test("scrypt refuses bad parameters and too much memory")
    func scryptLimits() {
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try KDF.scrypt(password: [1], salt: [2], n: 1000, r: 8, p: 1, keyLength: 32)
        }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try KDF.scrypt(password: [1], salt: [2], n: 1 << 20, r: 8, p: 1, keyLength: 32, maxMemory: 1 << 20)
        }
    }

    @Test("EVP_BytesToKey matches `openssl enc -P`", arguments: [(DigestAlgorithm.md5, "aes-256-cbc", 32, 16), (.sha256, "aes-128-cbc", 16, 16), (.md5, "des-ede3-cbc", 24, 8)])
    func bytesToKey(digest: DigestAlgorithm, cipher: String, keyLength: Int, ivLength: Int) throws {
        let salt = TestHex.bytes("0102030405060708")
        let name = digest == .md5 ? "md5" : "sha256"
        let output = String(decoding: try OpenSSLTool.run([
            "enc", "-\(cipher)", "-P", "-md", name, "-S", TestHex.string(salt), "-pass", "pass:secret passphrase",
        ]), as: UTF8.self)
        let fields = Dictionary(uniqueKeysWithValues: output.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            return parts.count == 2 ? (parts[0], parts[1].lowercased()) : nil
        })
        let derived = try KDF.evpBytesToKey(digest: digest, password: Array("secret passphrase".utf8), salt: salt, keyLength: keyLength, ivLength: ivLength)
        #expect(TestHex.string(derived.key) == fields["key"])
        #expect(TestHex.string(derived.iv) == fields["iv"])
    }

    @Test("EVP_BytesToKey without salt, several rounds, and salt checks")
    func bytesToKeyVariants() throws {
        // Without salt and with count 1, the first block is MD5(password).
        let unsalted = try KDF.evpBytesToKey(digest: .md5, password: Array("abc".utf8), salt: nil, keyLength: 16, ivLength: 0)
        #expect(TestHex.string(unsalted.key) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(unsalted.iv.isEmpty)
        // With count 2 the first block is MD5(MD5(password)).
        let twice = try KDF.evpBytesToKey(digest: .md5, password: Array("abc".utf8), salt: nil, keyLength: 16, ivLength: 0, count: 2)
        #expect(twice.key == Digest.hash(.md5, TestHex.bytes("900150983cd24fb0d6963f7d28e17f72")))
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try KDF.evpBytesToKey(digest: .md5, password: [1], salt: [1, 2, 3], keyLength: 16, ivLength: 16)
        }
    }

    /// PBKDF1 has no RFC vectors; these come from Python's hashlib (an independent implementation of
    /// the iterated hash). The SHA-1 one is also the widely published "password" /
    /// 78578E5A5D63CB06 / 1000 vector (DC19847E05C64D2FAF10EBFB4A3D2A20…).
    @Test("PBKDF1 (RFC 8018 §5.1) known answers", arguments: [
        (DigestAlgorithm.md5, "password", "78578e5a5d63cb06", 1000, "c11246e6b87e77a09ab0643de76e1ea7"),
        (.sha1, "password", "78578e5a5d63cb06", 1000, "dc19847e05c64d2faf10ebfb4a3d2a20b4e35efe"),
        (.sha1, "", "0001020304050607", 1, "67423ebfa8454f19ac6f4686d6c0dc731a3ddd6b"),
    ])
    func pbkdf1(_ digest: DigestAlgorithm, _ password: String, _ salt: String, _ iterations: Int, _ expected: String) throws {
        let derived = try KDF.pbkdf1(password: SecureBytes(Array(password.utf8)), salt: TestHex.bytes(salt), iterations: iterations, digest: digest)
        #expect(TestHex.string(derived) == expected)
    }

    @Test("PBKDF1 refuses fewer than one iteration")
    func pbkdf1Iterations() {
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try KDF.pbkdf1(password: SecureBytes([1]), salt: [], iterations: 0, digest: .md5)
        }
    }
}
