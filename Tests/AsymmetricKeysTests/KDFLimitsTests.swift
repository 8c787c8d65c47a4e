import AsymmetricKeys
import Testing
import KeyCodec

/// The costs a file names are checked against ``KDFLimits`` before any derivation starts.
@Suite("KDF cost caps")
struct KDFLimitsTests {
    static func decode(_ file: String, _ limits: KDFLimits) throws -> DecodedKey {
        let bytes = try DERFixtures.bytes(file)
        return try KDFLimits.$current.withValue(limits) {
            try KeyDecoder.decode(bytes, source: file, passphrase: DERFixtures.provider)
        }
    }

    @Test("PBKDF2 iterations above the cap are refused, naming the count, the offset and the cap")
    func iterations() throws {
        // openssl wrote 2048 iterations (INTEGER at offset 43 of the DER).
        let error = try #require(throws: KeyError.self) {
            try Self.decode("ec-p256.pkcs8-aes256-sha256.pem", KDFLimits(maximumIterations: 2047))
        }
        #expect(error.code == .costTooHigh)
        #expect(error.exceededLimit == .iterations)
        #expect(error.reason.contains("PBKDF2 iteration count at offset 43 is 2048, above the cap of 2047"))
        #expect(error.reason.contains("maximumIterations"))
        let decoded = try Self.decode("ec-p256.pkcs8-aes256-sha256.pem", KDFLimits(maximumIterations: 2048))
        #expect(decoded.key.isPrivate)
    }

    @Test("scrypt memory above the cap is refused before deriving")
    func scryptMemory() throws {
        // N = 16384, r = 8: 16 MiB.
        let error = try #require(throws: KeyError.self) {
            try Self.decode("ec-p256.pkcs8-scrypt.der", KDFLimits(maximumMemory: 8 << 20))
        }
        #expect(error.code == .costTooHigh)
        #expect(error.exceededLimit == .memory)
        #expect(error.reason.contains("is 16 MiB, above the cap of 8 MiB"))
        let decoded = try Self.decode("ec-p256.pkcs8-scrypt.der", KDFLimits(maximumMemory: 16 << 20))
        #expect(decoded.key.isPrivate)
    }

    @Test("bcrypt-pbkdf rounds above the cap are refused with the rounds cap named, and the cap can be raised")
    func bcryptRounds() throws {
        // ssh-keygen wrote 16 rounds (the uint32 at offset 63 of the openssh-key-v1 blob).
        let error = try #require(throws: KeyError.self) {
            try Self.decode("ec-p256.openssh-aes256-ctr", KDFLimits(maximumRounds: 15))
        }
        #expect(error.code == .costTooHigh)
        #expect(error.exceededLimit == .rounds)
        #expect(error.reason.contains("bcrypt rounds at offset 63 is 16, above the cap of 15"))
        #expect(error.reason.contains("maximumRounds"))
        #expect(KDFLimits.default.maximumRounds == 10_000)
        #expect(KDFLimits.default.maximumParallelism == 64)
        let decoded = try Self.decode("ec-p256.openssh-aes256-ctr", KDFLimits(maximumRounds: 16))
        #expect(decoded.key.isPrivate)
    }

    @Test("a passphrase is never asked for when the cost is refused")
    func noPrompt() throws {
        let bytes = try DERFixtures.bytes("ec-p256.pkcs8-scrypt.der")
        let error = try #require(throws: KeyError.self) {
            try KDFLimits.$current.withValue(KDFLimits(maximumMemory: 1 << 20)) {
                try KeyDecoder.decode(bytes, source: "x", passphrase: { _ in
                    Issue.record("asked for a passphrase")
                    return nil
                })
            }
        }
        #expect(error.code == .costTooHigh)
    }
}
