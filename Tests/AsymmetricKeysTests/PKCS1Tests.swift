import ASN1Kit
import CofferTestSupport
import Foundation
import AsymmetricKeys
import Testing

@Suite("PKCS#1 fixtures")
struct PKCS1Tests {
    static let names = ["rsa1024", "rsa2048", "rsa3072", "rsa4096", "rsa2048-e3"]

    @Test("private key DER round-trips byte-identical and matches the facts", arguments: names)
    func privateKey(name: String) throws {
        let der = try DERFixtures.bytes("\(name).pkcs1.der")
        let fact = try #require(try DERFixtures.facts.first { $0.file == "\(name).pkcs1.der" })
        let key = try RSAPrivateKey(pkcs1DER: der)
        #expect(key.publicKey.modulusHex == fact.modulus)
        #expect(key.pkcs1DER.bytes == der)
        let pem = try DERFixtures.bytes("\(name).pkcs1.pem")
        #expect(Array(PEMBlock(label: "RSA PRIVATE KEY", bytes: key.pkcs1DER.bytes).pemText.utf8) == pem)
    }

    @Test("public key DER round-trips byte-identical", arguments: names)
    func publicKey(name: String) throws {
        let der = try DERFixtures.bytes("\(name).pkcs1-public.der")
        let key = try RSAPublicKey(pkcs1DER: der[...])
        #expect(key.pkcs1DER == der)
        let pem = try DERFixtures.bytes("\(name).pkcs1-public.pem")
        #expect(Array(PEMBlock(label: "RSA PUBLIC KEY", bytes: key.pkcs1DER).pemText.utf8) == pem)
    }

    @Test("the 3-prime key keeps its other prime")
    func threePrime() throws {
        let block = try PEMParser.blocks(in: DERFixtures.bytes("rsa2048-3prime.pkcs1.pem"))[0]
        let key = try RSAPrivateKey(pkcs1DER: block.bytes)
        #expect(key.version == 1)
        #expect(key.otherPrimes.count == 1)
        #expect(key.pkcs1DER.bytes == block.bytes)
    }
}
