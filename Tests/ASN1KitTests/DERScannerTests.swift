import ASN1Kit
import Testing

/// ``DERScanner``, the allocation-free mode of the header reader: what it reads, what it leaves to
/// ``DERReader``, and that the two agree wherever the scanner answers.
@Suite("DERScanner")
struct DERScannerTests {
    @Test("reads SEQUENCE { INTEGER 0, INTEGER 0x80, INTEGER 5 } as content ranges and magnitudes")
    func readsASequence() {
        let der: [UInt8] = [0x30, 0x0A, 0x02, 0x01, 0x00, 0x02, 0x02, 0x00, 0x80, 0x02, 0x01, 0x05]
        der.withUnsafeBytes { bytes in
            var scanner = DERScanner(bytes)
            #expect(scanner.enter(0x30) == 2..<12)
            #expect(scanner.position == 2)
            #expect(scanner.readUnsignedInteger() == 4..<5)
            #expect(scanner.readUnsignedInteger() == 8..<9, "the sign octet is not part of the magnitude")
            #expect(scanner.readUnsignedInteger() == 11..<12)
            #expect(scanner.isAtEnd)
        }
    }

    @Test("skip moves past exactly the expected bytes and nothing else")
    func skip() {
        let der: [UInt8] = [0x05, 0x00, 0x04, 0x01, 0xAA]
        der.withUnsafeBytes { bytes in
            var scanner = DERScanner(bytes)
            let null: [UInt8] = [0x05, 0x00]
            let wrong: [UInt8] = [0x05, 0x01]
            #expect(wrong.withUnsafeBytes { scanner.skip($0) } == false)
            #expect(scanner.position == 0)
            #expect(null.withUnsafeBytes { scanner.skip($0) })
            #expect(scanner.read(0x04) == 4..<5)
            #expect(scanner.isAtEnd)
            #expect(null.withUnsafeBytes { scanner.skip($0) } == false, "nothing left to match")
        }
    }

    @Test("answers nil for what it leaves to DERReader", arguments: [
        ([0x30, 0x83, 0x00, 0x00, 0x01, 0x00], "three length octets"),
        ([0x30, 0x81, 0x05, 0, 0, 0, 0, 0], "non-minimal one-octet long form"),
        ([0x30, 0x82, 0x00, 0x81] + [UInt8](repeating: 0, count: 0x81), "non-minimal two-octet long form"),
        ([0x30, 0x80, 0x00, 0x00], "indefinite length"),
        ([0x3F, 0x81, 0x01, 0x00], "high tag number"),
        ([0x30, 0x05, 0x00], "content longer than the input"),
        ([0x30], "truncated header"),
        ([0x31, 0x00], "another identifier"),
    ] as [([UInt8], String)])
    func leavesTheRest(_ der: [UInt8], _ what: String) {
        der.withUnsafeBytes { bytes in
            var scanner = DERScanner(bytes)
            #expect(scanner.enter(0x30) == nil, "\(what)")
            #expect(scanner.position == 0, "\(what): a refusal does not move")
        }
    }

    @Test("refuses INTEGERs that are negative, empty or not minimal", arguments: [
        [0x02, 0x01, 0x80], [0x02, 0x00], [0x02, 0x02, 0x00, 0x01], [0x02, 0x02, 0xFF, 0x80],
    ] as [[UInt8]])
    func refusesIntegers(_ der: [UInt8]) {
        der.withUnsafeBytes { bytes in
            var scanner = DERScanner(bytes)
            #expect(scanner.readUnsignedInteger() == nil)
            #expect(scanner.position == 0)
        }
    }

    @Test("agrees with DERReader on every two-, three- and four-octet header over 300 content bytes")
    func agreesWithDERReader() throws {
        let content = [UInt8](repeating: 0x41, count: 300)
        var headers: [[UInt8]] = []
        for identifier: UInt8 in [0x04, 0x30, 0x1F, 0xA0] {
            for length in 0...0xFF { headers.append([identifier, UInt8(length)]) }
            for second in 0...0xFF { headers.append([identifier, 0x81, UInt8(second)]) }
            for high: UInt8 in [0x00, 0x01] {
                for low in 0...0xFF { headers.append([identifier, 0x82, high, UInt8(low)]) }
            }
        }
        var answered = 0
        for header in headers {
            let input = header + content
            let scanned: Range<Int>? = input.withUnsafeBytes { bytes in
                var scanner = DERScanner(bytes)
                return scanner.read(header[0])
            }
            var reader = DERReader(input)
            let element = try? reader.readElement()
            if let scanned {
                answered += 1
                let element = try #require(element, "DERReader refuses \(header) that the scanner read")
                #expect(element.contentOffset == scanned.lowerBound && element.content.count == scanned.count, "\(header)")
            } else if let element, header[0] & 0x1F != 0x1F {
                // The scanner may leave a valid header only when DERReader needs its rarer forms.
                #expect(element.headerLength > 4, "\(header): the scanner refused a common-form header")
            }
        }
        #expect(answered == 903, "384 short, 384 one-octet and 135 two-octet lengths that fit")
    }
}
