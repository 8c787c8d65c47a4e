import ASN1Kit
import CofferTestSupport
import Foundation
import AsymmetricKeys
import Testing

@Suite("X.509 certificate public key")
struct X509Tests {
    @Test("the certificate's key is the fixture key")
    func certificateKey() throws {
        let der = try DERFixtures.bytes("rsa2048.cert.der")
        let key = try CertificateDER.publicKey(in: der[...])
        let spki = try SubjectPublicKeyInfo.decode(DERFixtures.bytes("rsa2048.spki.der"))
        #expect(key == spki)
        #expect(Array(try CertificateDER.subjectPublicKeyInfo(in: der[...])) == SubjectPublicKeyInfo.encode(spki))
        let pem = try PEMParser.blocks(in: DERFixtures.bytes("rsa2048.cert.pem"))
        #expect(pem.count == 1)
        #expect(pem[0].bytes == der)
    }

    @Test("a certificate openssl makes for a new key yields that key")
    func fresh() throws {
        let dir = try Tool.temporaryDirectory()
        let keyPath = dir.appendingPathComponent("k.pem").path
        let certPath = dir.appendingPathComponent("c.der").path
        try #require(try Tool.run("openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", keyPath]).status == 0)
        let made = try Tool.run("openssl", ["req", "-new", "-x509", "-key", keyPath, "-subj", "/CN=coffer test", "-days", "2",
                                            "-outform", "DER", "-out", certPath])
        try #require(made.status == 0, "\(made.stderr)")
        let cert = Array(try Data(contentsOf: URL(fileURLWithPath: certPath)))
        let key = try CertificateDER.publicKey(in: cert[...])
        #expect(key.rsa?.modulusHex == (try Tool.opensslModulus(path: keyPath)))
    }

    @Test("truncated certificates fail with .malformed and an offset")
    func truncated() throws {
        let der = try DERFixtures.bytes("rsa2048.cert.der")
        for length in stride(from: 0, to: der.count, by: 7) {
            let error = try #require(throws: KeyError.self) { try CertificateDER.publicKey(in: der[..<length]) }
            #expect(error.code == .malformed)
            #expect(error.offset != nil)
        }
    }
}
