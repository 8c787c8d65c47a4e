import ASN1Kit
import CofferErrors
import Testing

/// The incremental mode of the header reader: how many more bytes a cut-off header needs, and the
/// same errors as the whole-input reader for headers no more bytes can fix.
@Suite("Stream headers")
struct ASN1StreamHeaderTests {
    static func parse(_ bytes: [UInt8], rules: ASN1ParsingOptions.Rules = .lenientBER) throws(ASN1Error) -> ASN1StreamHeader {
        try ASN1StreamHeader.parse(bytes[...], at: 0, origin: 0, rules: rules)
    }

    @Test("complete headers, with the content still to come")
    func complete() throws {
        #expect(try Self.parse([0x30, 0x80]) == .complete(tag: .sequence, headerLength: 2, contentLength: nil))
        #expect(try Self.parse([0x04, 0x82, 0x01, 0x00]) == .complete(tag: .octetString, headerLength: 4, contentLength: 256))
        #expect(try Self.parse([0xBF, 0x81, 0x00, 0x03, 1, 2, 3]) == .complete(tag: ASN1Tag(.contextSpecific, 128, constructed: true), headerLength: 4, contentLength: 3))
    }

    @Test("a cut-off header asks for more bytes", arguments: [
        ([], 2), ([0x30], 1), ([0x1F], 2), ([0x1F, 0x81], 2), ([0x04, 0x84, 0x01], 3), ([0x04, 0x82], 2),
    ] as [([UInt8], Int)])
    func needMore(bytes: [UInt8], count: Int) throws {
        #expect(try Self.parse(bytes) == .needMoreBytes(count))
    }

    @Test("headers no more bytes can fix are errors, as in the whole-input reader")
    func errors() throws {
        // Equality compares the code only; the offset is checked on its own.
        let cases: [([UInt8], ASN1ParsingOptions.Rules, ASN1Error.Code)] = [
            ([0x30, 0xFF], .lenientBER, .invalidLength),
            ([0x04, 0x80], .lenientBER, .invalidLength),
            ([0x30, 0x80], .der, .indefiniteLength),
            ([0x04, 0x89], .lenientBER, .invalidLength),
            ([0x1F, 0x80, 0x01], .lenientBER, .invalidTag),
        ]
        for (bytes, rules, code) in cases {
            #expect(throws: ASN1Error(code, "", offset: 0)) { try Self.parse(bytes, rules: rules) }
            let thrown = try #require(throws: ASN1Error.self) { try Self.parse(bytes, rules: rules) }
            #expect(thrown.offset == 0, "\(bytes)")
            #expect(thrown.context.offset == 0, "\(bytes)")
        }
        let error = try #require(throws: ASN1Error.self) { try ASN1StreamHeader.parse([0xAA, 0x30, 0xFF][...], at: 1, origin: -99, rules: .lenientBER) }
        #expect(error.offset == 100)
    }
}
