import ASN1Kit
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import AsymmetricKeys

@Suite("RSA private key consistency check")
struct KeyCheckTests {
    static let consistentFixtures = ["rsa1024.pkcs1.der", "rsa2048.pkcs1.der", "rsa3072.pkcs1.der", "rsa4096.pkcs1.der",
                                     "rsa2048-e3.pkcs1.der", "rsa2048-3prime.pkcs1.pem"]

    static func load(_ file: String) throws -> RSAPrivateKey {
        let bytes = try SSHFixtures.bytes(file)
        if file.hasSuffix(".pem") {
            return try RSAPrivateKey(pkcs1DER: try PEMParser.blocks(in: bytes)[0].bytes)
        }
        return try RSAPrivateKey(pkcs1DER: bytes)
    }

    /// `openssl pkey -check` on the key's PKCS#1 DER: true when openssl calls it consistent.
    static func opensslAccepts(_ key: RSAPrivateKey) throws -> Bool {
        let path = try SSHTool.temporaryFile(key.pkcs1DER.bytes, name: "key.der")
        return try SSHTool.run("openssl", ["pkey", "-inform", "DER", "-in", path, "-check", "-noout"]).status == 0
    }

    /// A copy of `key` with some numbers replaced (magnitudes); the others stay.
    static func altered(_ key: RSAPrivateKey, n: BigNumber? = nil, e: BigNumber? = nil, d: BigNumber? = nil,
                        p: BigNumber? = nil, q: BigNumber? = nil, dP: BigNumber? = nil, dQ: BigNumber? = nil,
                        qInv: BigNumber? = nil, others: [RSAPrivateKey.OtherPrime]? = nil) throws -> RSAPrivateKey {
        func bytes(_ number: BigNumber?, _ original: [UInt8]) -> [UInt8] {
            guard let number else { return original }
            let magnitude = number.bigEndianBytes
            return magnitude.isEmpty ? [0] : magnitude
        }
        return try RSAPrivateKey(modulus: bytes(n, key.modulus), publicExponent: bytes(e, key.publicExponent),
                                 privateExponent: bytes(d, key.privateExponent.bytes), prime1: bytes(p, key.prime1.bytes),
                                 prime2: bytes(q, key.prime2.bytes), exponent1: bytes(dP, key.exponent1.bytes),
                                 exponent2: bytes(dQ, key.exponent2.bytes), coefficient: bytes(qInv, key.coefficient.bytes),
                                 otherPrimes: others ?? key.otherPrimes)
    }

    static func number(_ bytes: [UInt8]) -> BigNumber { BigNumber(bigEndian: bytes) }

    @Test("openssl's keys are consistent, and openssl agrees", arguments: consistentFixtures)
    func consistent(_ file: String) throws {
        let key = try Self.load(file)
        #expect(try key.consistencyProblems() == [])
        #expect(try Self.opensslAccepts(key))
    }

    @Test("keys read from OpenSSH files, with computed CRT values, are consistent",
          arguments: ["rsa2048.openssh", "rsa2048-e3.openssh", "rsa2048.openssh-aes256-gcm"])
    func opensshConsistent(_ file: String) throws {
        let key = try OpenSSHPrivateKey.decode(try SSHFixtures.bytes(file), passphrase: SSHFixtures.provider).key
        #expect(try key.consistencyProblems() == [])
    }

    struct Corruption: Sendable, CustomTestStringConvertible {
        var name: String
        var expected: String
        var make: @Sendable (RSAPrivateKey) throws -> RSAPrivateKey
        var testDescription: String { name }
    }

    static let corruptions: [Corruption] = [
        Corruption(name: "dP + 2", expected: "exponent1 (dP) is not d mod (p−1)") { key in
            try altered(key, dP: number(key.exponent1.bytes) + BigNumber(2))
        },
        Corruption(name: "dQ + 2", expected: "exponent2 (dQ) is not d mod (q−1)") { key in
            try altered(key, dQ: number(key.exponent2.bytes) + BigNumber(2))
        },
        Corruption(name: "qInv + 1", expected: "coefficient (qInv) is not the inverse of q modulo p") { key in
            try altered(key, qInv: number(key.coefficient.bytes) + BigNumber.one)
        },
        Corruption(name: "d + 2", expected: "e·d is not 1 modulo λ(n)") { key in
            try altered(key, d: number(key.privateExponent.bytes) + BigNumber(2))
        },
        Corruption(name: "n + 2", expected: "n is not the product of the primes") { key in
            try altered(key, n: number(key.modulus) + BigNumber(2))
        },
        Corruption(name: "n even", expected: "the modulus n is even") { key in
            try altered(key, n: number(key.modulus) + BigNumber.one)
        },
        Corruption(name: "e even", expected: "the public exponent e is even") { key in
            try altered(key, e: BigNumber(65538))
        },
        Corruption(name: "e = 1", expected: "the public exponent e is not between 1 and n") { key in
            try altered(key, e: BigNumber.one)
        },
        Corruption(name: "p composite, n = p·q", expected: "p (prime1) is not prime") { key in
            let p = number(key.prime1.bytes) * BigNumber(3)
            return try altered(key, n: p * number(key.prime2.bytes), p: p)
        },
        Corruption(name: "q = p", expected: "p (prime1) and q (prime2) are the same number") { key in
            try altered(key, q: number(key.prime1.bytes))
        },
    ]

    @Test("each corrupted number is detected with a clear message, and openssl rejects it too", arguments: corruptions)
    func corrupted(_ corruption: Corruption) throws {
        let key = try corruption.make(try Self.load("rsa1024.pkcs1.der"))
        let problems = try key.consistencyProblems()
        #expect(problems.contains { $0.hasPrefix(corruption.expected) }, "\(problems)")
        #expect(try !Self.opensslAccepts(key))
    }

    @Test("corrupted other-prime values of a 3-prime key")
    func multiPrime() throws {
        let key = try Self.load("rsa2048-3prime.pkcs1.pem")
        var others = key.otherPrimes
        others[0].coefficient = SecureBytes((Self.number(others[0].coefficient.bytes) + BigNumber.one).bigEndianBytes)
        let badCoefficient = try Self.altered(key, others: others)
        #expect(try badCoefficient.consistencyProblems().contains { $0.contains("coefficient of r3") })
        #expect(try !Self.opensslAccepts(badCoefficient))

        others = key.otherPrimes
        others[0].exponent = SecureBytes((Self.number(others[0].exponent.bytes) + BigNumber(2)).bigEndianBytes)
        let badExponent = try Self.altered(key, others: others)
        #expect(try badExponent.consistencyProblems() == ["the exponent of r3 (other prime 1) is not d mod (r−1)"])
        #expect(try !Self.opensslAccepts(badExponent))
    }

    @Test("a textbook key is consistent but too small")
    func tooSmall() throws {
        // p = 61, q = 53, n = 3233, e = 17, d = 2753: every relation holds.
        let key = try RSAPrivateKey(modulus: [0x0C, 0xA1], publicExponent: [17], privateExponent: [0x0A, 0xC1],
                                    prime1: [61], prime2: [53], exponent1: [53], exponent2: [49], coefficient: [38])
        #expect(try key.consistencyProblems() == ["the modulus n has 12 bits, fewer than 512"])
    }

    @Test("a prime of 1 is reported without arithmetic on it")
    func primeOfOne() throws {
        let key = try Self.altered(try Self.load("rsa1024.pkcs1.der"), p: BigNumber.one)
        let problems = try key.consistencyProblems()
        #expect(problems.contains("p (prime1) is not above 1"))
        #expect(problems.contains("n is not the product of the primes"))
    }

    @Test("messages never contain the key's numbers")
    func noNumbersInMessages() throws {
        let key = try Self.altered(try Self.load("rsa1024.pkcs1.der"), d: Self.number(try Self.load("rsa1024.pkcs1.der").privateExponent.bytes) + BigNumber(2))
        let problems = try key.consistencyProblems()
        #expect(!problems.isEmpty)
        for number in [key.privateExponent.bytes, key.prime1.bytes, key.prime2.bytes, key.modulus] {
            let hex = Hex.encodeMagnitude(number)
            #expect(problems.allSatisfy { !$0.contains(hex.prefix(16)) })
        }
    }
}
