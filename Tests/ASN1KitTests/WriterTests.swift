import ASN1Kit
import CofferTestSupport
import Testing

@Suite("DER writer")
struct WriterTests {
    @Test("integers in minimal two's complement", arguments: [
        (Int64(0), "02 01 00"), (127, "02 01 7F"), (128, "02 02 00 80"), (256, "02 02 01 00"),
        (-1, "02 01 FF"), (-128, "02 01 80"), (-129, "02 02 FF 7F"),
        (Int64.min, "02 08 80 00 00 00 00 00 00 00"), (Int64.max, "02 08 7F FF FF FF FF FF FF FF"),
    ])
    func signedIntegers(value: Int64, expected: String) throws {
        var writer = DERWriter()
        writer.writeInteger(value)
        #expect(writer.finish() == TestHex.bytes(expected))
        var reader = DERReader(TestHex.bytes(expected))
        #expect(try reader.readInteger(as: Int64.self) == value)
    }

    @Test func unsignedIntegers() throws {
        var writer = DERWriter()
        writer.writeInteger(UInt64.max)
        writer.writeUnsignedInteger([0x00, 0x00, 0x80, 0x01])
        writer.writeUnsignedInteger([UInt8]())
        #expect(writer.finish() == TestHex.bytes("02 09 00 FF FF FF FF FF FF FF FF 02 03 00 80 01 02 01 00"))
    }

    @Test("lengths in every form", arguments: [0, 1, 127, 128, 255, 256, 65_535, 65_536, 1 << 24])
    func lengths(count: Int) throws {
        let content = [UInt8](repeating: 0xA5, count: count)
        var writer = DERWriter()
        writer.writeSequence { $0.writeOctetString(content) }
        let der = writer.finish()
        var reader = DERReader(der)
        let back = try reader.readSequence { try $0.readOctetString() }
        try reader.finish()
        #expect(back.count == count)
        #expect(back.allSatisfy { $0 == 0xA5 })
    }

    @Test func highTagNumbersAndClasses() throws {
        var writer = DERWriter()
        writer.writeConstructed(ASN1Tag(.private, 1_000_000, constructed: true)) { inner in
            inner.writePrimitive(ASN1Tag(.application, 31, constructed: false), content: [1, 2])
            inner.writeExplicit(3) { $0.writeNull() }
        }
        let der = writer.finish()
        #expect(der == TestHex.bytes("FF BD 84 40 09 5F 1F 02 01 02 A3 02 05 00"))
        let tree = try ASN1Tree(parsing: der)
        #expect(tree.nodes[0].tag == ASN1Tag(.private, 1_000_000, constructed: true))
    }

    @Test("deep nesting is written in linear time and parses back")
    func deepNesting() throws {
        // 60 levels, each with a growing payload so that lengths change form along the way.
        func build(_ writer: inout DERWriter, level: Int) {
            writer.writeSequence { seq in
                seq.writeOctetString([UInt8](repeating: UInt8(level), count: level * 7))
                if level < 59 { build(&seq, level: level + 1) }
            }
        }
        var writer = DERWriter()
        build(&writer, level: 0)
        let der = writer.finish()
        let tree = try ASN1Tree(parsing: der)
        #expect(tree.nodes.count == 120)
        #expect(tree.nodes.last!.depth == 60)
        var again = DERWriter()
        again.writeTree(tree)
        #expect(again.finish() == der)
    }

    @Test func stringsAreValidatedWhenWritten() throws {
        var writer = DERWriter()
        try writer.writeString("Coffer", type: .printableString)
        try writer.writeString("Café ☕", type: .utf8String)
        try writer.writeString("Ωmega", type: .bmpString)
        #expect(throws: ASN1Error.self) { try writer.writeString("a@b", type: .printableString) }
        let der = writer.finish()
        var reader = DERReader(der)
        #expect(try reader.readString(.printableString) == "Coffer")
        #expect(try reader.readString(.utf8String) == "Café ☕")
        #expect(try reader.readString(.bmpString) == "Ωmega")
        try reader.finish()
    }

    @Test func bitStringsAndBooleans() throws {
        var writer = DERWriter()
        writer.writeBitString(ASN1BitString(bytes: [0xF0][...], unusedBits: 4))
        writer.writeBoolean(true)
        writer.writeBoolean(false)
        #expect(writer.finish() == TestHex.bytes("03 02 04 F0 01 01 FF 01 01 00"))
    }
}
