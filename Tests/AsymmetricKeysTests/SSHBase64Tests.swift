import ASN1Kit
import Testing

@testable import AsymmetricKeys

/// Reading SSH base64: ASN1Kit's decoder with errors as ``KeyError`` (writing is ASN1Kit's
/// `Base64.encode(_:lineWidth:padding:)`, tested in ASN1KitTests).
@Suite("SSH base64")
struct SSHBase64Tests {
    @Test("RFC 4648 §10 test vectors")
    func vectors() throws {
        let vectors = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            #expect(try SSHBase64.decode(Array(encoded.utf8)[...], baseOffset: 0, what: "t") == Array(plain.utf8))
        }
    }

    @Test("reads what the wrapped encoder writes, on random data")
    func readsWrapped() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0..<300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let wrapped = Base64.encode(bytes, lineWidth: 70)
            #expect(try SSHBase64.decode(Array(wrapped.utf8)[...], baseOffset: 0, what: "t") == bytes)
        }
    }

    @Test("malformed text fails at the same offset as ASN1Kit's decoder")
    func malformed() {
        for text in ["AAAA*", "AA=A", "AAAA=", "A", "AB==", "AAA==", "AAB=", "AA = =x", "AAAA\u{7F}", "====", "AB="] {
            let bytes = Array(text.utf8)
            let ours = #expect(throws: KeyError.self) { try SSHBase64.decode(bytes[...], baseOffset: 10, what: "t") }
            let theirs = #expect(throws: ASN1Error.self) { try Base64.decode(bytes, baseOffset: 10) }
            #expect(ours?.code == .malformed)
            #expect(ours?.offset == theirs?.offset, "\(text)")
        }
    }
}
