import CofferTestSupport
import Foundation
import Testing

@testable import AsymmetricKeys
import KeyCodec

/// EC public points openssl wrote compressed, with both prefixes: 02 (even y) was refused until
/// `case (0x02 | 0x03)`, a bitwise OR that matched only 03, became two cases.
@Suite("EC keys: compressed points from openssl")
struct CompressedPointTests {
    struct Fact: Decodable, Sendable, CustomTestStringConvertible {
        let name: String
        let curve: String
        let prefix: String
        let uncompressedPoint: String
        var testDescription: String { name }
    }

    static var facts: [Fact] { get throws { try FixtureFacts.load([Fact].self, in: RealWorldFixtures.directory("ec-compressed")) } }

    @Test("the facts cover both prefixes on every curve")
    func factsCoverBothPrefixes() throws {
        let facts = try FixtureFacts.load([Fact].self, in: RealWorldFixtures.directory("ec-compressed"))
        #expect(Set(facts.map(\.prefix)) == ["02", "03"])
        #expect(Set(facts.map(\.curve)).count == 3)
    }

    @Test("SPKI (PEM, DER) and SEC 1 read to openssl's uncompressed point", arguments: try facts)
    func readsAsOpenSSLDerives(fact: Fact) throws {
        for file in ["\(fact.name).spki.pem", "\(fact.name).spki.der", "\(fact.name).sec1.pem"] {
            let bytes = try RealWorldFixtures.bytes("ec-compressed", file)
            let decoded = try KeyDecoder.decode(bytes, source: file, passphrase: nil)
            #expect(TestHex.string(try decoded.key.publicKey().rawBytes) == fact.uncompressedPoint, "\(file)")
        }
    }
}
