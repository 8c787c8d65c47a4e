import ASN1Kit
import CofferTestSupport
import Testing

@Suite("DER walker")
struct DERWalkerTests {
    static func headers(_ bytes: [UInt8], options: ASN1ParsingOptions = .der) throws -> [ASN1Header] {
        var seen: [ASN1Header] = []
        let count = try DERWalker.walk(bytes, options: options) { seen.append($0) }
        #expect(count == seen.count)
        return seen
    }

    static func nodes(_ tree: ASN1Tree) -> [ASN1Header] {
        tree.nodes.map { ASN1Header(tag: $0.tag, offset: $0.offset, headerLength: $0.headerLength, length: $0.length, depth: $0.depth) }
    }

    @Test("visits exactly the nodes of ASN1Tree", arguments: try FixtureFiles.list("asn1", suffix: ".der"))
    func fixtures(_ file: String) throws {
        let der = try FixtureFiles.bytes("asn1/\(file)")
        #expect(try Self.headers(der) == Self.nodes(try ASN1Tree(parsing: der)))
    }

    @Test("agrees with ASN1Tree on random trees", arguments: 0..<100)
    func randomTrees(seed: Int) throws {
        var rng = SplitMix64(UInt64(seed) &+ 77)
        var writer = DERWriter()
        RandomTreePropertyTests.write(RandomTreePropertyTests.randomNode(&rng, depth: 0), into: &writer)
        let der = writer.finish()
        #expect(try Self.headers(der) == Self.nodes(try ASN1Tree(parsing: der)))
    }

    @Test func structuralErrorsMatchTheReader() {
        let cases: [[UInt8]] = [
            [], TestHex.bytes("30"), TestHex.bytes("30 84 FF FF FF FF 02 01 00 00"), TestHex.bytes("04 81 01 AA"), TestHex.bytes("05 00 00"),
            TestHex.bytes("30 80 02 01 05 00 00"), TestHex.bytes("1F 05 00"), TestHex.bytes("30 03 02 02 00"), TestHex.bytes("04 FF 00"),
        ]
        for bytes in cases {
            var walkerError: ASN1Error?
            var treeError: ASN1Error?
            do { try DERWalker.walk(bytes) } catch let error as ASN1Error { walkerError = error } catch {}
            do { _ = try ASN1Tree(parsing: bytes) } catch let error as ASN1Error { treeError = error } catch {}
            #expect(walkerError != nil, "\(bytes)")
            #expect(walkerError?.code == treeError?.code, "\(bytes)")
            #expect(walkerError?.offset == treeError?.offset, "\(bytes)")
        }
    }

    @Test func depthLimit() throws {
        func nested(_ levels: Int, _ writer: inout DERWriter) {
            if levels == 0 { writer.writeNull(); return }
            writer.writeSequence { nested(levels - 1, &$0) }
        }
        var writer = DERWriter()
        nested(70, &writer)
        let bytes = writer.finish()
        #expect(throws: ASN1Error.self) { try DERWalker.walk(bytes) }
        #expect(try DERWalker.walk(bytes, options: ASN1ParsingOptions(maximumDepth: 80)) == 71)
    }

    @Test func highTagsAndLongLengthsTakeTheGeneralPath() throws {
        var writer = DERWriter()
        writer.writeConstructed(ASN1Tag(.private, 1_000_000, constructed: true)) { inner in
            inner.writeOctetString([UInt8](repeating: 7, count: 70_000))
        }
        let der = writer.finish()
        #expect(try Self.headers(der) == Self.nodes(try ASN1Tree(parsing: der)))
    }
}
