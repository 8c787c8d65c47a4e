import ASN1Kit
import Testing

/// ``Base64StreamDecoder``: the same bytes however the text is split, and errors with the offset
/// counted across chunks.
@Suite("Base64 stream decoder")
struct Base64StreamDecoderTests {
    static func decode(_ text: String, mode: Base64StreamDecoder.Mode, chunk: Int) throws(ASN1Error) -> [UInt8] {
        let bytes = Array(text.utf8)
        var decoder = Base64StreamDecoder(mode: mode)
        var output: [UInt8] = []
        var start = 0
        while start < bytes.count {
            let end = min(start + chunk, bytes.count)
            try decoder.decode(bytes[start..<end], into: &output)
            start = end
        }
        try decoder.finish(into: &output)
        return output
    }

    @Test("any split gives the whole-text decoding", arguments: [1, 2, 3, 5, 64])
    func splits(chunk: Int) throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let bytes = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(try Self.decode(Base64.encode(bytes, lineWidth: 64), mode: .pem, chunk: chunk) == bytes)
            let url = Base64.encodeURL(bytes)
            #expect(try Self.decode("\"" + url + "\"", mode: .lenient, chunk: chunk) == bytes)
        }
    }

    @Test("PEM mode rejects what lenient mode skips, at the right offset", arguments: [1, 4, 100])
    func errors(chunk: Int) throws {
        let error = try #require(throws: ASN1Error.self) { try Self.decode("Zm9v\n*Zm9v", mode: .pem, chunk: chunk) }
        #expect(error.code == .invalidBase64)
        #expect(error.offset == 5)
        #expect(try Self.decode("Zm9v\n*Zm9v", mode: .lenient, chunk: chunk) == Array("foofoo".utf8))
        let padding = try #require(throws: ASN1Error.self) { try Self.decode("Zg==Zg==", mode: .pem, chunk: chunk) }
        #expect(padding.offset == 4)
        #expect(try Self.decode("Zg==Zg==", mode: .lenient, chunk: chunk) == Array("ff".utf8))
        let lone = try #require(throws: ASN1Error.self) { try Self.decode("Zm9vZ", mode: .pem, chunk: chunk) }
        #expect(lone.offset == 5)
    }
}
