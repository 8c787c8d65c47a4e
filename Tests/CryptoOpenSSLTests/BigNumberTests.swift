import CofferErrors
import CofferTestSupport
import Foundation
import Testing

@testable import CryptoOpenSSL

@Suite("Big numbers")
struct BigNumberTests {
    @Test("encodings of small values")
    func encodings() throws {
        #expect(BigNumber.zero.bigEndianBytes == [])
        #expect(BigNumber.zero.hex == "0")
        #expect(BigNumber.zero.isZero)
        #expect(BigNumber(255).hex == "ff")
        #expect(BigNumber(256).hex == "100")
        #expect(BigNumber(256).bigEndianBytes == [1, 0])
        #expect(BigNumber(bigEndian: [0, 0, 1, 0]) == BigNumber(256))
        #expect(BigNumber(bigEndian: []).isZero)
        #expect(BigNumber(256).bigEndianBytes(paddedTo: 4) == [0, 0, 1, 0])
        #expect(BigNumber(256).bigEndianBytes(paddedTo: 1) == nil)
        #expect(BigNumber(1).isOne)
        #expect(BigNumber(7).isOdd && !BigNumber(8).isOdd)
        #expect(BigNumber(0x1_0000).bitCount == 17)
        #expect(BigNumber(UInt64.max).description == "18446744073709551615")
        #expect((BigNumber(UInt64.max) + .one).description == "18446744073709551616")
        #expect(BigNumber(hex: "0aBc") == BigNumber(0xabc))
        #expect(BigNumber(hex: "xyz") == nil)
        #expect(BigNumber(hex: "") == nil)
        let negative = BigNumber(3) - BigNumber(10)
        #expect(negative.isNegative)
        #expect(negative.hex == "-7")
        #expect(negative.description == "-7")
        #expect(negative < .zero)
    }

    @Test("arithmetic agrees with machine integers on random values")
    func againstUInt64() {
        var random = SplitMix64(31)
        for _ in 0..<300 {
            let a = random.next() >> 33
            let b = (random.next() >> 33) | 1
            let x = BigNumber(a)
            let y = BigNumber(b)
            #expect(x + y == BigNumber(a + b))
            #expect(x * y == BigNumber(a * b))
            #expect(x / y == BigNumber(a / b))
            #expect(x % y == BigNumber(a % b))
            #expect((x < y) == (a < b))
            #expect(x.gcd(y) == BigNumber(Self.gcd(a, b)))
            #expect(x.hex == String(a, radix: 16))
            if a >= b { #expect(x - y == BigNumber(a - b)) }
        }
        #expect(BigNumber(12).lcm(BigNumber(18)) == BigNumber(36))
        #expect(BigNumber(0).lcm(BigNumber(18)).isZero)
    }

    @Test("large identities, inverses and exponentiation")
    func largeValues() throws {
        var random = SplitMix64(32)
        let a = BigNumber(bigEndian: random.bytes(128))
        let b = BigNumber(bigEndian: random.bytes(64))
        #expect((a * b) / b == a)
        #expect(((a * b) % b).isZero)
        #expect((a + b) - b == a)
        #expect(a.bigEndianBytes.count <= 128)
        // 2^127 - 1 is a Mersenne prime.
        let mersenne = BigNumber(hex: "7fffffffffffffffffffffffffffffff")!
        #expect(try mersenne.isProbablyPrime())
        #expect(try !(mersenne * BigNumber(3)).isProbablyPrime())
        // Fermat: a^(p-1) ≡ 1 (mod p), and the inverse times the number is 1.
        let base = BigNumber(bigEndian: random.bytes(12))
        #expect(base.modPow(mersenne - .one, modulus: mersenne).isOne)
        let inverse = try base.modInverse(mersenne)
        #expect(((base * inverse) % mersenne).isOne)
        #expect(inverse < mersenne)
        #expect(BigNumber(4).modPow(BigNumber(13), modulus: BigNumber(497)) == BigNumber(445))
        #expect(BigNumber(4).modPow(BigNumber(13), modulus: BigNumber(496)) == BigNumber((UInt64(1) << 26) % 496))
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) { try BigNumber(6).modInverse(BigNumber(9)) }
        #expect(throws: CryptoError(.invalidArgument, "", operation: "")) { try BigNumber(6).modInverse(.zero) }
    }

    @Test("primality matches `openssl prime`")
    func primality() throws {
        var random = SplitMix64(33)
        for _ in 0..<6 {
            let candidate = BigNumber(bigEndian: random.bytes(16)) + BigNumber(UInt64(random.below(100)))
            let output = String(decoding: try OpenSSLTool.run(["prime", "-hex", candidate.hex]), as: UTF8.self)
            #expect(try candidate.isProbablyPrime() == !output.contains("not prime"))
        }
        let prime = String(decoding: try OpenSSLTool.run(["prime", "-generate", "-bits", "256", "-hex"]), as: UTF8.self)
        #expect(try BigNumber(hex: prime.trimmingCharacters(in: .whitespacesAndNewlines))!.isProbablyPrime())
    }

    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        b == 0 ? a : gcd(b, a % b)
    }
}
