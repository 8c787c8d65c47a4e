import Foundation
import ASN1Kit
import CofferTestSupport
import Testing

@Suite("Object identifiers")
struct ObjectIdentifierTests {
    @Test("dotted form round-trips through the encoding", arguments: [
        "1.2.840.113549.1.1.1", "2.5.4.3", "0.0", "1.39", "2.999", "2.16.840.1.101.3.4.2.1",
        "2.25.329800735698586629295641978511506172918", "1.3.6.1.4.1.18446744073709551615.18446744073709551616",
        "2.100000000000000000000000000.1",
    ])
    func roundTrip(_ dotted: String) throws {
        let oid = try #require(ASN1ObjectIdentifier(dotted: dotted))
        #expect(oid.dotted == dotted)
        var writer = DERWriter()
        writer.writeObjectIdentifier(oid)
        var reader = DERReader(writer.finish())
        #expect(try reader.readObjectIdentifier() == oid)
    }

    @Test func knownEncoding() {
        #expect(ASN1ObjectIdentifier.rsaEncryption.encoded == TestHex.bytes("2A 86 48 86 F7 0D 01 01 01"))
        #expect(ASN1ObjectIdentifier.rsaEncryption.arcs == [1, 2, 840, 113_549, 1, 1, 1])
        #expect(ASN1ObjectIdentifier(dotted: "2.999")!.encoded == TestHex.bytes("88 37"))
    }

    @Test("invalid dotted forms", arguments: ["", "1", "3.1", "1.40", "1..2", "1.2.", "01.2", "1.a", "-1.2"])
    func invalid(_ dotted: String) {
        #expect(ASN1ObjectIdentifier(dotted: dotted) == nil)
    }

    @Test func names() {
        #expect(ASN1ObjectIdentifier.sha256.name == "sha256")
        #expect(ASN1ObjectIdentifier.pbes2.name == "PBES2")
        #expect(ASN1ObjectIdentifier.cmsAuthEnvelopedData.name == "id-smime-ct-authEnvelopedData")
        #expect(ASN1ObjectIdentifier.aes256GCM.description == "2.16.840.1.101.3.4.1.46 (aes-256-gcm)")
        #expect(ASN1ObjectIdentifier(dotted: "1.2.3.4")!.name == nil)
    }

    @Test("arcs of up to 18 digits (read in 64-bit arithmetic) and longer ones (read as big numbers) give the same content octets as the DER reader's")
    func arcSizes() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let first = UInt64.random(in: 0...2, using: &generator)
            let second = first == 2 ? UInt64.random(in: 0...UInt64(999_999_999_999_999_999), using: &generator) : UInt64.random(in: 0...39, using: &generator)
            var arcs = [String(first), String(second)]
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                let digits = Int.random(in: 1...18, using: &generator)
                arcs.append(String(UInt64.random(in: 0...(digits == 18 ? 999_999_999_999_999_999 : UInt64(pow(10.0, Double(digits))) - 1), using: &generator)))
            }
            let dotted = arcs.joined(separator: ".")
            let oid = try #require(ASN1ObjectIdentifier(dotted: dotted), "\(dotted)")
            #expect(oid.dotted == dotted)
            let reread = try ASN1ObjectIdentifier(validating: oid.encoded[...])
            #expect(reread.dotted == dotted)
        }
        // Past 18 digits the general parser reads the arc: 2^64 and a UUID arc.
        for dotted in ["1.2.18446744073709551616", "2.25.329800735698586629295641978511506172918", "1.2.1234567890123456789"] {
            #expect(ASN1ObjectIdentifier(dotted: dotted)?.dotted == dotted)
        }
        for bad in ["1.2.0123", "2.-1", "1.2.3 ", "1.2.٣"] {
            #expect(ASN1ObjectIdentifier(dotted: bad) == nil, "\(bad)")
        }
    }
}
