import ASN1Kit
import CofferTestSupport
import Foundation
import AsymmetricKeys
import Testing

@Suite("SubjectPublicKeyInfo")
struct SPKITests {
    static let sizes = ["rsa1024", "rsa2048", "rsa3072", "rsa4096", "rsa2048-e3"]

    @Test("reads openssl's SPKI DER and writes it back byte-identical", arguments: sizes)
    func roundTrip(name: String) throws {
        let der = try DERFixtures.bytes("\(name).spki.der")
        let fact = try #require(try DERFixtures.facts.first { $0.file == "\(name).spki.der" })
        let decoded = try SubjectPublicKeyInfo.decode(der)
        let key = try #require(decoded.rsa)
        #expect(key.modulusHex == fact.modulus)
        #expect(key.publicExponentHex == fact.publicExponent)
        #expect(key.bits == fact.bits)
        #expect(SubjectPublicKeyInfo.encode(decoded) == der)
        #expect(SubjectPublicKeyInfo.encode(.rsa(key)) == der)
        #expect(try SubjectPublicKeyInfo.decode(der[...]) == .rsa(key))
    }

    @Test("PEM of the written SPKI equals openssl's PEM", arguments: sizes)
    func pemIdentical(name: String) throws {
        let pem = try DERFixtures.bytes("\(name).spki.pem")
        let key = try SubjectPublicKeyInfo.decode(try DERFixtures.bytes("\(name).spki.der"))
        #expect(Array(PEMBlock(label: "PUBLIC KEY", bytes: SubjectPublicKeyInfo.encode(key)).pemText.utf8) == pem)
    }

    @Test("absent rsaEncryption parameters are accepted when reading")
    func absentParameters() throws {
        let original = try SubjectPublicKeyInfo.decode(try DERFixtures.bytes("rsa1024.spki.der"))
        var writer = DERWriter()
        writer.writeSequence { seq in
            seq.writeSequence { alg in alg.writeObjectIdentifier(.rsaEncryption) }
            seq.writeBitString(ASN1BitString(bytes: original.rawBytes))
        }
        #expect(try SubjectPublicKeyInfo.decode(writer.finish()) == original)
    }

    @Test("an RSASSA-PSS key reads as an RSA key that keeps its restriction")
    func pssKey() throws {
        let original = try SubjectPublicKeyInfo.decode(try DERFixtures.bytes("rsa1024.spki.der"))
        for withParameters in [false, true] {
            var writer = DERWriter()
            writer.writeSequence { seq in
                seq.writeSequence { alg in
                    alg.writeObjectIdentifier(.rsassaPSS)
                    if withParameters {
                        // RSASSA-PSS-params with every field at its default: an empty SEQUENCE.
                        alg.writeSequence { _ in }
                    }
                }
                seq.writeBitString(ASN1BitString(bytes: original.rawBytes))
            }
            let decoded = try SubjectPublicKeyInfo.decode(writer.finish())
            #expect(decoded.rsa?.modulus == original.rsa?.modulus)
            #expect(decoded.rsa?.publicExponent == original.rsa?.publicExponent)
            // Before, the restriction was dropped and the key compared equal to the rsaEncryption one.
            #expect(decoded != original)
            #expect(decoded.rsa?.pssRestriction == RSAPSSRestriction(parameters: withParameters ? .init() : nil))
        }
    }

    @Test("openssl's RSA-PSS public key reads as an RSA key")
    func opensslPSS() throws {
        let dir = try Tool.temporaryDirectory()
        let keyPath = dir.appendingPathComponent("pss.pem").path
        let generated = try Tool.run("openssl", ["genpkey", "-algorithm", "RSA-PSS", "-pkeyopt", "rsa_keygen_bits:1024", "-out", keyPath])
        try #require(generated.status == 0)
        let pub = try Tool.run("openssl", ["pkey", "-in", keyPath, "-pubout", "-outform", "DER"])
        try #require(pub.status == 0)
        let key = try SubjectPublicKeyInfo.decode(pub.stdout)
        #expect(key.rsa?.bits == 1024)
        let pkcs8 = try Tool.run("openssl", ["pkcs8", "-topk8", "-nocrypt", "-in", keyPath, "-outform", "DER"])
        try #require(pkcs8.status == 0)
        let privateKey = try PKCS8PrivateKey.decode(pkcs8.stdout)
        #expect(try privateKey.publicKey() == key)
    }

    @Test("a non-RSA SPKI key where RSA is needed names the algorithm", arguments: [("ec-p256.spki.pem", "EC (P-256)"), ("ed25519.spki.pem", "Ed25519")])
    func nonRSA(file: String, name: String) throws {
        let der = try PEMParser.blocks(in: DERFixtures.bytes(file))[0].bytes
        let error = try #require(throws: KeyError.self) { try SubjectPublicKeyInfo.decode(der).requireRSA(for: "RSA encryption") }
        #expect(error.code == .unsupportedAlgorithm)
        #expect(error.reason.contains(name))
    }

    @Test("an unknown algorithm OID is .unsupportedAlgorithm with its dotted form")
    func unknownAlgorithm() throws {
        var writer = DERWriter()
        writer.writeSequence { seq in
            seq.writeSequence { alg in alg.writeObjectIdentifier("1.2.3.4.5") }
            seq.writeBitString(ASN1BitString(bytes: [0x00]))
        }
        let error = try #require(throws: KeyError.self) { try SubjectPublicKeyInfo.decode(writer.finish()) }
        #expect(error.code == .unsupportedAlgorithm)
        #expect(error.reason.contains("1.2.3.4.5"))
    }
}
