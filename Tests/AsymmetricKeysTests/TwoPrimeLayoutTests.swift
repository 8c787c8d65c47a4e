import ASN1Kit

@_spi(Oracles) import AsymmetricKeys
import Testing

@Suite("PKCS#1 fast two-prime reader")
struct TwoPrimeLayoutTests {
    @Test("agrees with the general reader on every PKCS#1 fixture", arguments: PKCS1Tests.names)
    func fixtures(name: String) throws {
        let der = try DERFixtures.bytes("\(name).pkcs1.der")
        #expect(RSAPrivateKey.twoPrimeFastPathAgrees(der))
    }

    @Test("agrees with the general reader on every truncation and on single-byte changes")
    func mutations() throws {
        let der = try DERFixtures.bytes("rsa1024.pkcs1.der")
        for length in 0..<der.count {
            #expect(RSAPrivateKey.twoPrimeFastPathAgrees(Array(der.prefix(length))), "truncated to \(length) bytes")
        }
        // Every header and boundary byte of the first 64 bytes, set to values that matter to DER:
        // tags, length forms, sign octets.
        for index in 0..<64 {
            for value: UInt8 in [0x00, 0x01, 0x02, 0x30, 0x7F, 0x80, 0x81, 0x82, 0x83, 0xFF] {
                var changed = der
                changed[index] = value
                #expect(RSAPrivateKey.twoPrimeFastPathAgrees(changed), "byte \(index) set to \(value)")
            }
        }
        #expect(RSAPrivateKey.twoPrimeFastPathAgrees(der + [0x00]), "trailing byte")
    }

    @Test("leaves a multi-prime key to the general reader")
    func multiPrime() throws {
        let block = try PEMParser.blocks(in: DERFixtures.bytes("rsa2048-3prime.pkcs1.pem"))[0]
        #expect(RSAPrivateKey.twoPrimeFastPathAgrees(block.bytes))
        #expect(try RSAPrivateKey(pkcs1DER: block.bytes).otherPrimes.count == 1)
    }
}
