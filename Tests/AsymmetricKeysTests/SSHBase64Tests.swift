import ASN1Kit
import Testing
@testable import AsymmetricKeys

@Suite("SSH base64")
struct SSHBase64Tests {
    @Test("RFC 4648 §10 test vectors")
    func vectors() throws {
        let vectors = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            #expect(SSHBase64.encode(Array(plain.utf8)) == encoded)
            #expect(try SSHBase64.decode(Array(encoded.utf8)[...], baseOffset: 0, what: "t") == Array(plain.utf8))
            #expect(SSHBase64.encode(Array(plain.utf8), padding: false) == encoded.replacingOccurrences(of: "=", with: ""))
        }
    }

    @Test("agrees with ASN1Kit's Base64 on random data, wrapped or not")
    func agreesWithASN1Kit() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0..<300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let reference = Base64.encode(bytes)
            #expect(SSHBase64.encode(bytes) == reference)
            let wrapped = SSHBase64.encode(bytes, lineWidth: 70)
            #expect(wrapped.split(separator: "\n").allSatisfy { $0.count <= 70 })
            #expect(wrapped.replacingOccurrences(of: "\n", with: "") == reference)
            #expect(bytes.isEmpty ? wrapped.isEmpty : wrapped.hasSuffix("\n"))
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
