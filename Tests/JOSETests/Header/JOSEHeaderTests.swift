import ASN1Kit
import CofferJSON
import CryptoOpenSSL
import Foundation
import JOSE
import Testing

/// Headers: registered members typed, duplicates and wrong types refused, the received text kept,
/// unions disjoint, certificate chains written.
@Suite("JOSE headers")
struct JOSEHeaderTests {
    @Test("a protected header keeps the text it was received as")
    func keepsReceivedText() throws {
        // RFC 7515 A.1's header: a CRLF and a space inside.
        let protected = try ProtectedHeader(encoded: Array("eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9".utf8))
        #expect(protected.encoded == "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9")
        #expect(protected.header.type == "JWT")
        #expect(protected.header.algorithm == "HS256")
        #expect(ProtectedHeader(protected.header).encoded != protected.encoded)
    }

    @Test("registered members of the wrong type are refused", arguments: [
        #"{"alg":1}"#, #"{"crit":"b64"}"#, #"{"b64":"false"}"#, #"{"p2c":1.5}"#, #"{"x5c":[1]}"#, #"{"jwk":"k"}"#,
    ])
    func wrongTypes(_ json: String) {
        #expect(throws: JOSEError(.malformed, "")) { try JOSEHeader(json: Array(json.utf8)) }
    }

    @Test("typed accessors read and write")
    func accessors() throws {
        var header = JOSEHeader()
        header.algorithm = "ES256"
        header.keyID = "k1"
        header.critical = ["b64"]
        header.base64EncodedPayload = false
        header.pbes2Count = 1000
        let read = try JOSEHeader(json: header.serialized)
        #expect(read.names == ["alg", "kid", "crit", "b64", "p2c"])
        #expect(read.critical == ["b64"])
        #expect(read.base64EncodedPayload == false)
        #expect(read.pbes2Count == 1000)
        header.keyID = nil
        #expect(header["kid"] == nil)
    }

    @Test("a union of headers that share a member is refused")
    func union() throws {
        var first = JOSEHeader()
        first.algorithm = "HS256"
        var second = JOSEHeader()
        second.keyID = "a"
        #expect(try first.union(second).names == ["alg", "kid"])
        second.algorithm = "HS256"
        #expect(throws: JOSEError(.malformed, "")) { try first.union(second) }
    }

    @Test("x5c and x5t#S256 from a certificate")
    func certificateChain() throws {
        let url = JOSEFixtures.directory.deletingLastPathComponent().appendingPathComponent("x509/leaf-ed25519.der")
        let der = Array(try Data(contentsOf: url))
        var header = JOSEHeader()
        header.setCertificateChain([der])
        #expect(try Base64.decode(Array(try #require(header.x509CertificateChain?.first).utf8)) == der)
        #expect(header.x509SHA256Thumbprint == Base64.encodeURL(Digest.hash(.sha256, der)))
    }
}
