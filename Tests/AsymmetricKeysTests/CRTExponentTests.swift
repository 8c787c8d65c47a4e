import CofferTestSupport
import CryptoOpenSSL

@testable import AsymmetricKeys
import Testing

/// The CRT exponents OpenSSH and PuTTY keys leave out, from OpenSSL (`RSACRTExponents`).
@Suite("CRT exponents for OpenSSH and PuTTY keys")
struct CRTExponentTests {
    /// d mod (p − 1) through `RSACRTExponents`.
    func exponent(_ d: [UInt8], _ p: [UInt8]) -> [UInt8] {
        let both = RSACRTExponents.compute(privateExponent: d, prime1: p, prime2: p)
        #expect(both.exponent1 == both.exponent2)
        return both.exponent1.bytes
    }

    /// The plain `BN_mod` answer (no constant-time flags): d mod (p − 1).
    func reference(_ d: [UInt8], _ p: [UInt8]) -> [UInt8] {
        let result = (BigNumber(bigEndian: d) % (BigNumber(bigEndian: p) - BigNumber.one)).bigEndianBytes
        return result.isEmpty ? [0] : result
    }

    @Test("equals BN_mod for random sizes, including one-limb and full-limb divisors")
    func random() {
        var bytes = SplitMix64(0x9E37_79B9_7F4A_7C15)
        for dLength in [1, 7, 8, 9, 63, 64, 65, 128, 256, 384, 512] {
            for pLength in [1, 2, 8, 9, 16, 64, 128, 129, 192, 256] {
                for _ in 0..<4 {
                    let d = bytes.bytes(dLength)
                    var p = bytes.bytes(pLength)
                    if p.allSatisfy({ $0 <= 1 }) { p[p.count - 1] = 3 }
                    if p.first == 0 && p.dropFirst().allSatisfy({ $0 <= 1 }) { p[0] = 1 }
                    #expect(exponent(d, p) == reference(d, p), "d \(d.count) bytes, p \(p.count) bytes")
                }
            }
        }
    }

    @Test("edge divisors: all-ones limbs, powers of two, top limb equal to the dividend's")
    func edges() {
        let d = [UInt8](repeating: 0xFF, count: 256)
        for p in [[UInt8](repeating: 0xFF, count: 128), [0x01] + [UInt8](repeating: 0, count: 127) + [0x01],
                  [0x80] + [UInt8](repeating: 0, count: 127), [0x02], [0x03], d, d + [0x01]] {
            #expect(exponent(d, p) == reference(d, p))
        }
        #expect(exponent([0x00], [0x05]) == [0])
        #expect(exponent([0x08], [0x05]) == [0])
    }

    @Test("equals the exponents openssl wrote for the fixture keys", arguments: PKCS1Tests.names)
    func fixtures(name: String) throws {
        let key = try RSAPrivateKey(pkcs1DER: DERFixtures.bytes("\(name).pkcs1.der"))
        let computed = RSACRTExponents.compute(privateExponent: key.privateExponent, prime1: key.prime1, prime2: key.prime2)
        #expect(computed.exponent1 == key.exponent1)
        #expect(computed.exponent2 == key.exponent2)
    }

    @Test("an OpenSSH key's public half needs no exponents; its first private use builds openssl's PKCS#1 key once",
          arguments: ["rsa1024", "rsa2048", "rsa2048-e3"])
    func deferredUntilUsed(name: String) async throws {
        let key = try #require(try OpenSSHPrivateKey.decode(try SSHFixtures.bytes("\(name).openssh"), passphrase: nil).key.rsa)
        let expected = try RSAPrivateKey(pkcs1DER: try SSHFixtures.bytes("\(name).pkcs1.der"))
        #expect(key.publicKey.modulus == expected.modulus)
        #expect(key.bits == expected.bits)
        #expect(key.version == 0)
        #expect(!key.isEncoded, "reading the public half built the DER")
        // Many readers at once: every one sees the same exponents, built once.
        let seen = await withTaskGroup(of: [UInt8].self) { group in
            for index in 0..<16 {
                group.addTask { index % 2 == 0 ? key.exponent1.bytes : key.pkcs1DER.bytes }
            }
            return await group.reduce(into: [[UInt8]]()) { $0.append($1) }
        }
        #expect(key.isEncoded)
        for bytes in seen {
            #expect(bytes == expected.exponent1.bytes || bytes == expected.pkcs1DER.bytes)
        }
        #expect(seen.filter { $0 == expected.pkcs1DER.bytes }.count == 8)
        #expect(key.exponent2 == expected.exponent2)
        #expect(key.privateExponent == expected.privateExponent)
    }
}
