import CofferTestSupport
import Testing

@testable import CryptoOpenSSL

@Suite("bcrypt-pbkdf")
struct BcryptPBKDFTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var passphrase: String
        var salt: String
        var rounds: Int
        var key: String
        var testDescription: String { "\(rounds) rounds, \(key.count / 2) bytes" }
    }

    /// Produced with the Python `bcrypt` package (`bcrypt.kdf(password, salt, length, rounds)`), an
    /// independent implementation of OpenBSD's bcrypt_pbkdf. The first is also the package's own
    /// published vector. Fields are hex.
    static let vectors: [Vector] = [
        Vector(passphrase: "70617373776f7264", salt: "73616c74", rounds: 4,
               key: "5bbf0cc293587f1c3635555c27796598d47e579071bf427e9d8fbe842aba34d9"),
        Vector(passphrase: "70617373776f7264", salt: "73616c74", rounds: 8,
               key: "e1367ec5151a33faac4cc1c144cd23fa15d5548493ecc99b9b5d9c0d3b27bec76227ea66088b849b20ab7aa478010246e74bba51723fefa9f9474d6508845e8d"),
        Vector(passphrase: "636f727265637420686f727365", salt: "000102030405060708090a0b0c0d0e0f", rounds: 16,
               key: "6bd628cd9202c5d0cb3e47dc1332be0162d3d4262dac8dac9f00998434479f36930c217fd05e33a7e77e207f680659d2"),
        Vector(passphrase: "00ff70617373", salt: "01", rounds: 1, key: "ba"),
        Vector(passphrase: "70", salt: "73616c7473616c74", rounds: 2,
               key: "31d82deb2efbbe2af1557824ba6ffc9a78787ab0955a4d5a028c5700d95febd747ca4e7734ed20350e46b41657b61aed0bca8593d3d2b67e41438afa4074b30adbdf98b3112ca4a380237aff96c72c46ccc343fdad518ff29c049e292cdcdf43dab319de"),
    ]

    @Test("matches the reference implementation", arguments: vectors)
    func referenceVectors(_ vector: Vector) throws {
        let passphrase = SecureBytes(TestHex.bytes(vector.passphrase))
        let salt = TestHex.bytes(vector.salt)
        let expected = TestHex.bytes(vector.key)
        let key = try BcryptPBKDF.deriveKey(passphrase: passphrase, salt: salt, rounds: vector.rounds, keyLength: expected.count)
        #expect(TestHex.string(key.withUnsafeBytes { Array($0) }) == vector.key)
    }

    @Test("the Blowfish constants are pi's hex digits")
    func blowfishTables() {
        #expect(Blowfish.initialP.count == 18)
        #expect(Blowfish.initialP.first == 0x243F_6A88)
        #expect(Blowfish.initialP.last == 0x8979_FB1B)
        #expect(Blowfish.initialS0.first == 0xD131_0BA6)
        #expect(Blowfish.initialS3.last == 0x3AC3_72E6)
        #expect([Blowfish.initialS0, Blowfish.initialS1, Blowfish.initialS2, Blowfish.initialS3].allSatisfy { $0.count == 256 })
    }

    @Test("Blowfish encrypts Schneier's published test vector")
    func blowfishKnownAnswer() {
        // The unsalted expansion is the plain Blowfish key schedule; Eric Young's ECB vectors:
        // key 00…00, plaintext 00…00 → 4EF997456198DD78; key FF…FF, plaintext FF…FF → 51866FD5B85ECB8A.
        var cipher = Blowfish()
        let key = [UInt8](repeating: 0, count: 8)
        key.withUnsafeBytes { key in cipher.expandState(key: key) }
        var left: UInt32 = 0
        var right: UInt32 = 0
        cipher.encipher(&left, &right)
        #expect(left == 0x4EF9_9745)
        #expect(right == 0x6198_DD78)

        var other = Blowfish()
        let ones = [UInt8](repeating: 0xFF, count: 8)
        ones.withUnsafeBytes { key in other.expandState(key: key) }
        left = 0xFFFF_FFFF
        right = 0xFFFF_FFFF
        other.encipher(&left, &right)
        #expect(left == 0x5186_6FD5)
        #expect(right == 0xB85E_CB8A)
    }

    @Test("rejects arguments bcrypt_pbkdf rejects")
    func invalidArguments() {
        let passphrase = SecureBytes(Array("pw".utf8))
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try BcryptPBKDF.deriveKey(passphrase: SecureBytes([]), salt: [1], rounds: 1, keyLength: 16)
        }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try BcryptPBKDF.deriveKey(passphrase: passphrase, salt: [], rounds: 1, keyLength: 16)
        }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try BcryptPBKDF.deriveKey(passphrase: passphrase, salt: [1], rounds: 0, keyLength: 16)
        }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) {
            try BcryptPBKDF.deriveKey(passphrase: passphrase, salt: [1], rounds: 1, keyLength: 1025)
        }
    }
}
