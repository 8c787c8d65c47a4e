import ASN1Kit
import CofferTestSupport
import Testing

/// One minimal malformed input per strict-DER rule: each is rejected with the right code and
/// offset, and the lenient BER mode accepts the ones that are valid BER.
@Suite("Strict DER rules")
struct StrictDERRuleTests {
    func parseError(_ bytes: [UInt8], options: ASN1ParsingOptions = .der) -> ASN1Error? {
        do {
            _ = try ASN1Tree(parsing: bytes, options: options)
            return nil
        } catch let error as ASN1Error {
            return error
        } catch {
            Issue.record("unexpected error type \(error)")
            return nil
        }
    }

    @Test func lengthInLongFormBelow128IsNotMinimal() {
        let error = parseError(TestHex.bytes("04 81 01 AA"))
        #expect(error?.code == .nonMinimalLength)
        #expect(error?.offset == 0)
        #expect((try? ASN1Tree(parsing: TestHex.bytes("04 81 01 AA"), options: .lenientBER)) != nil)
    }

    @Test func lengthWithLeadingZeroOctetIsNotMinimal() {
        var bytes = TestHex.bytes("04 82 00 80")
        bytes += [UInt8](repeating: 0x41, count: 0x80)
        #expect(parseError(bytes)?.code == .nonMinimalLength)
    }

    @Test func indefiniteLengthIsRejectedInDERAndReadInLenientBER() throws {
        let bytes = TestHex.bytes("30 80 02 01 05 04 02 AB CD 00 00")
        #expect(parseError(bytes)?.code == .indefiniteLength)
        let tree = try ASN1Tree(parsing: bytes, options: .lenientBER)
        #expect(tree.nodes.count == 3)
        #expect(tree.nodes[0].element.isIndefiniteLength)
        #expect(tree.nodes[2].element.content == [0xAB, 0xCD][...])
    }

    @Test func indefiniteLengthWithoutEndOfContentsIsTruncated() {
        #expect(parseError(TestHex.bytes("30 80 02 01 05"), options: .lenientBER)?.code == .truncated)
    }

    @Test func primitiveWithIndefiniteLengthIsInvalid() {
        #expect(parseError(TestHex.bytes("04 80 00 00"), options: .lenientBER)?.code == .invalidLength)
    }

    @Test func reservedLengthOctet() {
        #expect(parseError(TestHex.bytes("04 FF 00"))?.code == .invalidLength)
    }

    @Test func trailingDataAfterTheValue() {
        let error = parseError(TestHex.bytes("05 00 00"))
        #expect(error?.code == .trailingData)
        #expect(error?.offset == 2)
    }

    @Test func trailingDataInsideASequence() {
        var reader = DERReader(TestHex.bytes("30 04 02 01 01 05"))
        #expect(throws: ASN1Error.self) {
            try reader.readSequence { seq in _ = try seq.readInteger(as: Int.self) }
        }
    }

    @Test func declaredLengthBeyondTheInputIsRejectedBeforeAnythingIsRead() {
        // Ten bytes that declare 4 GiB: the reader must say so without allocating.
        let error = parseError(TestHex.bytes("30 84 FF FF FF FF 02 01 00 00"))
        #expect(error?.code == .lengthOverrun)
        #expect(error?.offset == 0)
        #expect(error?.reason.contains("runs past the end of the input") == true)
    }

    @Test func errorMessageNamesLengthAndOffset() {
        // A SEQUENCE holding an OCTET STRING that declares 300 bytes at offset 4.
        var bytes = TestHex.bytes("30 82 01 00 04 82 01 2C")
        bytes += [UInt8](repeating: 0, count: 252)
        let error = parseError(bytes)
        #expect(error?.code == .lengthOverrun)
        #expect(error?.reason.hasPrefix("length 300 at offset 4 runs past the end of the input") == true)
    }

    @Test func truncatedHeader() {
        #expect(parseError(TestHex.bytes("30"))?.code == .truncated)
        #expect(parseError(TestHex.bytes("1F 81"))?.code == .truncated)
        #expect(parseError(TestHex.bytes("04 82 01"))?.code == .truncated)
        #expect(parseError([])?.code == .truncated)
    }

    @Test func nestingDepthIsLimited() {
        func nested(_ levels: Int, _ writer: inout DERWriter) {
            if levels == 0 { writer.writeNull(); return }
            writer.writeSequence { nested(levels - 1, &$0) }
        }
        var writer = DERWriter()
        nested(70, &writer)
        let bytes = writer.finish()
        // 70 nested SEQUENCEs and a NULL exceed the default limit of 64 levels...
        #expect(parseError(bytes)?.code == .depthExceeded)
        // ...and fit a raised limit.
        #expect((try? ASN1Tree(parsing: bytes, options: ASN1ParsingOptions(maximumDepth: 80))) != nil)
        // A lowered limit is enforced too.
        #expect(parseError(TestHex.bytes("30 04 30 02 05 00"), options: ASN1ParsingOptions(maximumDepth: 2))?.code == .depthExceeded)
    }

    @Test func highTagNumberForm() throws {
        // [APPLICATION 200] primitive, minimal high form: 5F 81 48.
        let tree = try ASN1Tree(parsing: TestHex.bytes("5F 81 48 01 00"))
        #expect(tree.nodes[0].tag == ASN1Tag(.application, 200, constructed: false))
        #expect(tree.nodes[0].headerLength == 4)
        // Leading 0x80 group, and a number below 31 in the high form, are not minimal.
        #expect(parseError(TestHex.bytes("5F 80 48 01 00"))?.code == .invalidTag)
        #expect(parseError(TestHex.bytes("1F 05 00"))?.code == .invalidTag)
    }

    @Test func allFourClassesAndTheConstructedBit() throws {
        let tree = try ASN1Tree(parsing: TestHex.bytes("30 0D 80 00 A1 02 05 00 42 01 07 E3 02 05 00"))
        let tags = tree.nodes.map(\.tag)
        #expect(tags == [
            .sequence, .context(0, constructed: false), .context(1, constructed: true), .null,
            ASN1Tag(.application, 2, constructed: false), ASN1Tag(.private, 3, constructed: true), .null,
        ])
        #expect(tree.nodes.map(\.depth) == [0, 1, 1, 2, 1, 1, 2])
        #expect(tree.nodes.map(\.tag.tagClass.description) == ["universal", "context", "context", "universal", "application", "private", "universal"])
    }

    @Test func booleanMustBeZeroOrFF() throws {
        #expect(parseError(TestHex.bytes("01 01 01"))?.code == .invalidBoolean)
        #expect(parseError(TestHex.bytes("01 02 FF FF"))?.code == .invalidBoolean)
        var reader = DERReader(TestHex.bytes("01 01 FF"))
        #expect(try reader.readBoolean() == true)
        var lenient = DERReader(TestHex.bytes("01 01 01"), options: .lenientBER)
        #expect(try lenient.readBoolean() == true)
    }

    @Test func integerMustBeMinimalAndNonEmpty() {
        #expect(parseError(TestHex.bytes("02 00"))?.code == .invalidInteger)
        #expect(parseError(TestHex.bytes("02 02 00 7F"))?.code == .invalidInteger)
        #expect(parseError(TestHex.bytes("02 02 FF 80"))?.code == .invalidInteger)
        #expect(parseError(TestHex.bytes("02 02 00 80")) == nil)
        #expect(parseError(TestHex.bytes("02 02 FF 7F")) == nil)
    }

    @Test func negativeIntegerWhereUnsignedIsRequired() {
        var reader = DERReader(TestHex.bytes("02 01 FF"))
        #expect(throws: ASN1Error.self) { _ = try reader.readUnsignedInteger() }
        var again = DERReader(TestHex.bytes("02 01 FF"))
        do {
            _ = try again.readInteger(as: UInt32.self)
            Issue.record("expected an error")
        } catch let error as ASN1Error {
            #expect(error.code == .negativeInteger)
        } catch {
            Issue.record("wrong error \(error)")
        }
    }

    @Test func integerOverflow() {
        var reader = DERReader(TestHex.bytes("02 02 01 00"))
        #expect(throws: ASN1Error.self) { _ = try reader.readInteger(as: Int8.self) }
        var fits = DERReader(TestHex.bytes("02 02 00 FF"))
        #expect((try? fits.readInteger(as: UInt8.self)) == 255)
    }

    @Test func nullMustBeEmpty() {
        #expect(parseError(TestHex.bytes("05 01 00"))?.code == .invalidNull)
    }

    @Test func bitStringRules() {
        #expect(parseError(TestHex.bytes("03 00"))?.code == .invalidBitString)
        #expect(parseError(TestHex.bytes("03 01 01"))?.code == .invalidBitString)
        #expect(parseError(TestHex.bytes("03 02 08 00"))?.code == .invalidBitString)
        #expect(parseError(TestHex.bytes("03 02 04 01"))?.code == .invalidBitString)
        #expect(parseError(TestHex.bytes("03 02 04 F0")) == nil)
        #expect(parseError(TestHex.bytes("03 01 00")) == nil)
    }

    @Test func objectIdentifierRules() {
        #expect(parseError(TestHex.bytes("06 00"))?.code == .invalidObjectIdentifier)
        #expect(parseError(TestHex.bytes("06 02 80 01"))?.code == .invalidObjectIdentifier)
        #expect(parseError(TestHex.bytes("06 02 2A 86"))?.code == .invalidObjectIdentifier)
    }

    @Test func stringCharacterSets() {
        #expect(parseError(TestHex.bytes("13 01 40"))?.code == .invalidString) // '@' in PrintableString
        #expect(parseError(TestHex.bytes("16 01 80"))?.code == .invalidString) // IA5String is 7-bit
        #expect(parseError(TestHex.bytes("0C 02 C3 28"))?.code == .invalidString) // bad UTF-8
        #expect(parseError(TestHex.bytes("1E 03 00 41 00"))?.code == .invalidString) // BMPString odd length
        #expect(parseError(TestHex.bytes("1E 02 D8 00"))?.code == .invalidString) // surrogate
        #expect(parseError(TestHex.bytes("12 02 31 41"))?.code == .invalidString) // NumericString letter
        #expect(parseError(TestHex.bytes("1A 01 07"))?.code == .invalidString) // VisibleString control
        #expect(parseError(TestHex.bytes("14 02 E9 41")) == nil) // TeletexString read as Latin-1
    }

    @Test func timeForms() throws {
        #expect(parseError([0x17, 0x0D] + Array("261121221541Z".utf8)) == nil)
        #expect(parseError([0x17, 0x0B] + Array("2611212215Z".utf8))?.code == .invalidTime) // no seconds
        #expect(parseError([0x17, 0x11] + Array("261121221541+0100".utf8))?.code == .invalidTime)
        #expect(parseError([0x18, 0x0F] + Array("20261121221541Z".utf8)) == nil)
        #expect(parseError([0x18, 0x11] + Array("20261121221541.5Z".utf8)) == nil)
        #expect(parseError([0x18, 0x12] + Array("20261121221541.50Z".utf8))?.code == .invalidTime) // trailing zero
        #expect(parseError([0x18, 0x10] + Array("20261121221541.Z".utf8))?.code == .invalidTime)
        #expect(parseError([0x18, 0x0F] + Array("20260230221541Z".utf8))?.code == .invalidTime) // 30 February
        var reader = DERReader([0x17, 0x0D] + Array("991231235959Z".utf8))
        let time = try reader.readTime()
        #expect(time.year == 1999)
        #expect(time.description == "1999-12-31T23:59:59Z")
    }

    @Test func setOfMustBeSorted() throws {
        #expect(parseError(TestHex.bytes("31 06 02 01 02 02 01 01"))?.code == .unsortedSet)
        #expect(parseError(TestHex.bytes("31 06 02 01 01 02 01 02")) == nil)
        #expect(parseError(TestHex.bytes("31 06 02 01 02 02 01 01"), options: .lenientBER) == nil)
        var reader = DERReader(TestHex.bytes("31 06 02 01 02 02 01 01"))
        #expect(throws: ASN1Error.self) { _ = try reader.readSetOf { try $0.readInteger(as: Int.self) } }
        var sorted = DERReader(TestHex.bytes("31 06 02 01 01 02 01 02"))
        #expect(try sorted.readSetOf { try $0.readInteger(as: Int.self) } == [1, 2])
    }

    @Test func constructedFormRules() {
        #expect(parseError(TestHex.bytes("22 03 02 01 01"))?.code == .invalidConstruction) // constructed INTEGER
        #expect(parseError(TestHex.bytes("24 03 04 01 01"))?.code == .invalidConstruction) // constructed OCTET STRING
        #expect(parseError(TestHex.bytes("24 03 04 01 01"), options: .lenientBER) == nil)
        #expect(parseError(TestHex.bytes("10 00"))?.code == .invalidConstruction) // primitive SEQUENCE
    }

    @Test func expectedTagMismatchNamesBoth() {
        var reader = DERReader(TestHex.bytes("04 00"))
        do {
            _ = try reader.readInteger(as: Int.self)
            Issue.record("expected an error")
        } catch let error as ASN1Error {
            #expect(error.code == .unexpectedTag)
            #expect(error.reason == "expected INTEGER at offset 0, found OCTET STRING")
        } catch {
            Issue.record("wrong error")
        }
        #expect(reader.offset == 0, "a failed read must not move the cursor")
    }
}
