import ASN1Kit
import Foundation
import FoundationEssentials
import Testing

/// Every DER fixture parses to exactly the structure `openssl asn1parse -i` recorded for it, and
/// re-encodes byte for byte.
@Suite("Fixtures against openssl asn1parse")
struct OpenSSLStructureTests {
    struct ExpectedNode: Equatable, CustomStringConvertible {
        var offset: Int
        var depth: Int
        var headerLength: Int
        var length: Int
        var constructed: Bool
        var name: String
        var description: String { "\(offset):d=\(depth) hl=\(headerLength) l=\(length) \(constructed ? "cons" : "prim") \(name)" }
    }

    static var fixtures: [String] {
        get throws { try FixtureFiles.list("asn1", suffix: ".der") }
    }

    /// Parses one `openssl asn1parse -i` line, e.g. `   4:d=1  hl=2 l=   1 prim:  INTEGER  :00`.
    static func parse(line: String) -> ExpectedNode? {
        let scanner = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard scanner.count == 3, let offset = Int(scanner[0].trimmingCharacters(in: .whitespaces)) else { return nil }
        let fields = scanner[1].split(separator: " ", omittingEmptySubsequences: true)
        func value(_ prefix: String) -> Int? {
            fields.first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) }
        }
        guard let depth = value("d="), let hl = value("hl=") else { return nil }
        // "l=   1" may be split by spaces: the number follows "l=".
        let lengthField = fields.firstIndex { $0.hasPrefix("l=") }!
        let length = Int(fields[lengthField].dropFirst(2)) ?? Int(fields[lengthField + 1])!
        let constructed = fields.last == "cons"
        var name = scanner[2].trimmingCharacters(in: .whitespaces)
        if let colon = name.firstIndex(of: ":"), !name.hasPrefix("cont"), !name.hasPrefix("appl") { name = String(name[..<colon]) }
        if let dump = name.range(of: "[HEX DUMP]") { name = String(name[..<dump.lowerBound]) }
        name = name.trimmingCharacters(in: .whitespaces)
        name = name.replacingOccurrences(of: "[ ", with: "[").replacingOccurrences(of: " ]", with: "]")
        if name == "OBJECT" { name = "OBJECT IDENTIFIER" }
        return ExpectedNode(offset: offset, depth: depth, headerLength: hl, length: length, constructed: constructed, name: name)
    }

    @Test("fixture list is not empty")
    func fixturesExist() throws {
        #expect(try Self.fixtures.count >= 8)
    }

    @Test("structure matches openssl asn1parse", arguments: try fixtures)
    func structure(_ file: String) throws {
        let der = try FixtureFiles.bytes("asn1/\(file)")
        let text = try String(contentsOf: FixtureFiles.url("asn1/\(file.dropLast(4)).asn1parse.txt"), encoding: .utf8)
        let expected = text.split(separator: "\n").compactMap { Self.parse(line: String($0)) }
        let tree = try ASN1Tree(parsing: der)
        let actual = tree.nodes.map {
            ExpectedNode(offset: $0.offset, depth: $0.depth, headerLength: $0.headerLength, length: $0.length,
                         constructed: $0.tag.isConstructed, name: $0.tag.name)
        }
        #expect(actual.count == expected.count)
        for (a, e) in zip(actual, expected) {
            #expect(a == e)
        }
    }

    @Test("parse then encode is byte-identical", arguments: try fixtures)
    func roundTrip(_ file: String) throws {
        let der = try FixtureFiles.bytes("asn1/\(file)")
        var writer = DERWriter()
        writer.writeTree(try ASN1Tree(parsing: der))
        #expect(writer.finish() == der)
    }

    @Test("OID names and values are decoded in the PKCS#8 fixture")
    func pkcs8Values() throws {
        let der = try FixtureFiles.bytes("asn1/rsa2048-pkcs8.der")
        var reader = DERReader(der)
        try reader.readSequence { seq in
            #expect(try seq.readInteger(as: Int.self) == 0)
            try seq.readSequence { alg in
                let oid = try alg.readObjectIdentifier()
                #expect(oid == .rsaEncryption)
                #expect(oid.name == "rsaEncryption")
                try alg.readNull()
            }
            let inner = try seq.readOctetString()
            var key = DERReader(inner)
            let n = try key.readSequence { k -> ArraySlice<UInt8> in
                #expect(try k.readInteger(as: Int.self) == 0)
                let n = try k.readUnsignedInteger()
                while !k.isAtEnd { _ = try k.readUnsignedInteger() }
                return n
            }
            #expect(n.count == 256)
            #expect(n.first! & 0x80 != 0)
        }
        try reader.finish()
    }
}
