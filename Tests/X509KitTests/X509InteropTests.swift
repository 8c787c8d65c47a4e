import AsymmetricKeys
import X509Kit
import CofferTestSupport
import Foundation
import Testing
import KeyCodec

/// Certificates the real openssl makes on the spot, with subjects that stress RFC 4514 escaping,
/// against what `openssl x509 -nameopt RFC2253` prints for them.
@Suite("X.509 names against openssl, live")
struct X509InteropTests {
    static let subjects = [
        "/CN=tab\there/O=a=b",
        "/CN=  two leading and trailing  ",
        "/CN=#",
        "/CN= ",
        "/CN=x;y\\,z/OU=a\\+b",
        "/CN=日本語/O=Ümlaut",
        "/CN=emoji 😀",
        "/DC=com/DC=example/CN=dc",
        "/serialNumber=1234/title=Dr/GN=Ada/SN=Lovelace/CN=Ada",
        "/CN=ctrl\u{01}byte",
        "/CN=multi+UID=valued+OU=rdn/O=last",
    ]

    @Test("the subject reads as openssl prints it", arguments: subjects)
    func subject(_ subject: String) throws {
        let dir = try TestScratch.directory("der")
        let keyPath = dir.appendingPathComponent("k.pem").path
        let certPath = dir.appendingPathComponent("c.pem").path
        try #require(try ToolProcess.run(tool: "openssl", ["genpkey", "-algorithm", "ED25519", "-out", keyPath]).status == 0)
        let made = try ToolProcess.run(tool: "openssl", ["req", "-new", "-x509", "-utf8", "-key", keyPath, "-subj", subject, "-days", "1", "-out", certPath])
        try #require(made.status == 0, "\(made.stderr)")
        let printed = try ToolProcess.run(tool: "openssl", ["x509", "-in", certPath, "-noout", "-subject", "-nameopt", "RFC2253"])
        let expected = String(printed.text.trimmingCharacters(in: .newlines).dropFirst("subject=".count))
        let decoded = try KeyDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: certPath))), source: certPath, passphrase: nil)
        let certificate = try #require(decoded.certificate)
        #expect(certificate.subject.rfc4514String == expected)
        #expect(certificate.issuer.rfc4514String == expected)
        #expect(try certificate.isSigned(by: certificate.publicKey))
    }
}
