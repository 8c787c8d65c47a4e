import ASN1Kit
import Foundation
import Testing

/// `Base64.encode(_:lineWidth:padding:)`: the line-wrapped and unpadded forms PEM, OpenSSH,
/// RFC 4716, PuTTY and SSH fingerprints write.
@Suite("Base64 line width and padding")
struct Base64EncodingOptionsTests {
    @Test("RFC 4648 §10 test vectors, padded and not")
    func vectors() {
        let vectors = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.encode(Array(plain.utf8), padding: false) == encoded.replacingOccurrences(of: "=", with: ""))
        }
    }

    @Test("wrapped text has full lines, a final newline, and decodes to the input", arguments: [1, 4, 64, 70])
    func wrapped(lineWidth: Int) throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0..<300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let reference = Base64.encode(bytes)
            let wrapped = Base64.encode(bytes, lineWidth: lineWidth)
            let lines = wrapped.split(separator: "\n")
            #expect(lines.dropLast().allSatisfy { $0.count == lineWidth })
            #expect(lines.last.map { $0.count <= lineWidth } ?? true)
            #expect(wrapped.replacingOccurrences(of: "\n", with: "") == reference)
            #expect(bytes.isEmpty ? wrapped.isEmpty : wrapped.hasSuffix("\n"))
            #expect(try Base64.decode(Array(wrapped.utf8)) == bytes)
        }
    }

    @Test("a PEM block's body is 64-column lines")
    func pem() {
        let block = PEMBlock(label: "TEST", bytes: Array(repeating: 0xAB, count: 100))
        let body = block.pemText.split(separator: "\n").dropFirst().dropLast()
        #expect(body.map(\.count) == [64, 64, 8])
    }
}
