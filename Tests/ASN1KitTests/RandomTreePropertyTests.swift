import ASN1Kit
import CofferTestSupport
import Testing

/// Property: any tree the writer encodes parses back to the same tree, and re-encodes byte for byte.
@Suite("Random trees")
struct RandomTreePropertyTests {
    indirect enum Node: Equatable {
        case primitive(ASN1Tag, [UInt8])
        case constructed(ASN1Tag, [Node])
    }

    static func randomTag(_ rng: inout SplitMix64, constructed: Bool) -> ASN1Tag {
        let tagClass = ASN1TagClass(rawValue: UInt8.random(in: 1...3, using: &rng))!
        let number: UInt64 = Bool.random(using: &rng) ? UInt64.random(in: 0...30, using: &rng) : UInt64.random(in: 31...UInt64(1) << 40, using: &rng)
        return ASN1Tag(tagClass, number, constructed: constructed)
    }

    static func randomNode(_ rng: inout SplitMix64, depth: Int) -> Node {
        if depth < 6 && Int.random(in: 0..<3, using: &rng) == 0 {
            let count = Int.random(in: 0...5, using: &rng)
            let children = (0..<count).map { _ in randomNode(&rng, depth: depth + 1) }
            let tag = Bool.random(using: &rng) ? ASN1Tag.sequence : randomTag(&rng, constructed: true)
            return .constructed(tag, children)
        }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
            var bytes = [UInt8](repeating: 0, count: Int.random(in: 1...40, using: &rng))
            for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255, using: &rng) }
            var writer = DERWriter()
            writer.writeUnsignedInteger(bytes)
            var reader = DERReader(writer.finish())
            return .primitive(.integer, Array(try! reader.readElement().content))
        case 1:
            return .primitive(.null, [])
        default:
            let length = [0, 1, 5, 127, 128, 200, 300, 70_000].randomElement(using: &rng)!
            var bytes = [UInt8](repeating: 0, count: length)
            for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255, using: &rng) }
            return .primitive(Bool.random(using: &rng) ? .octetString : randomTag(&rng, constructed: false), bytes)
        }
    }

    static func write(_ node: Node, into writer: inout DERWriter) {
        switch node {
        case .primitive(let tag, let bytes): writer.writePrimitive(tag, content: bytes)
        case .constructed(let tag, let children):
            writer.writeConstructed(tag) { inner in for child in children { write(child, into: &inner) } }
        }
    }

    static func read(_ reader: inout DERReader) throws -> Node {
        let element = try reader.readElement()
        if element.tag.isConstructed {
            var child = try reader.reader(for: element)
            var children: [Node] = []
            while !child.isAtEnd { children.append(try read(&child)) }
            return .constructed(element.tag, children)
        }
        return .primitive(element.tag, Array(element.content))
    }

    @Test("encode → parse → encode", arguments: 0..<200)
    func roundTrip(seed: Int) throws {
        var rng = SplitMix64(UInt64(seed))
        let node = Self.randomNode(&rng, depth: 0)
        var writer = DERWriter()
        Self.write(node, into: &writer)
        let der = writer.finish()

        var reader = DERReader(der)
        let parsed = try Self.read(&reader)
        try reader.finish()
        #expect(parsed == node, "seed \(seed)")

        let tree = try ASN1Tree(parsing: der)
        var again = DERWriter()
        again.writeTree(tree)
        #expect(again.finish() == der, "seed \(seed)")
    }

    @Test("every truncation of a valid encoding is rejected, never accepted or crashing", arguments: 0..<20)
    func truncations(seed: Int) throws {
        var rng = SplitMix64(UInt64(seed) &+ 1000)
        var writer = DERWriter()
        Self.write(.constructed(.sequence, [Self.randomNode(&rng, depth: 1), Self.randomNode(&rng, depth: 1)]), into: &writer)
        let der = writer.finish()
        for cut in stride(from: 0, to: der.count, by: max(1, der.count / 300)) {
            #expect(throws: ASN1Error.self) { _ = try ASN1Tree(parsing: Array(der[..<cut])) }
        }
    }
}
