import ASN1Kit
import Testing

@Suite("PEM and base64")
struct PEMTests {
    @Test func readsEveryBlockOfAFixtureBundle() throws {
        let blocks = try PEMParser.blocks(in: try FixtureFiles.bytes("asn1/two-blocks.pem"))
        #expect(blocks.map(\.label) == ["PUBLIC KEY", "RSA PUBLIC KEY"])
        #expect(blocks[0].bytes == (try FixtureFiles.bytes("asn1/rsa2048-spki.der")))
    }

    @Test func toleratesCRLFAnyWidthHeadersAndSurroundingText() throws {
        let der = try FixtureFiles.bytes("asn1/rsa2048-spki.der")
        let body = Array(Base64.encode(der).utf8)
        var text = "Some text a tool wrote before the block\r\n-----BEGIN PUBLIC KEY-----\r\n"
        text += "Proc-Type: 4,ENCRYPTED\r\nDEK-Info: AES-128-CBC,\r\n 00112233\r\n\r\n"
        var start = 0
        while start < body.count {
            let end = min(start + 70, body.count)
            text += String(decoding: body[start..<end], as: UTF8.self) + "\r\n"
            start = end
        }
        text += "-----END PUBLIC KEY-----\r\ntrailing words\r\n"
        let blocks = try PEMParser.blocks(in: Array(text.utf8))
        #expect(blocks.count == 1)
        #expect(blocks[0].bytes == der)
        #expect(blocks[0].header("proc-type") == "4,ENCRYPTED")
        #expect(blocks[0].header("DEK-Info") == "AES-128-CBC,00112233")
        #expect(blocks[0].offset == 41)
    }

    @Test func writesSixtyFourColumns() throws {
        let der = try FixtureFiles.bytes("asn1/rsa2048-spki.der")
        let text = PEMBlock(label: "PUBLIC KEY", bytes: der).pemText
        let lines = text.split(separator: "\n")
        #expect(lines.first == "-----BEGIN PUBLIC KEY-----")
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.count <= 64 })
        #expect(lines[1].count == 64)
        #expect(try PEMParser.blocks(in: Array(text.utf8))[0].bytes == der)
        // Same bytes as openssl writes.
        let openssl = try FixtureFiles.bytes("keys/rsa2048.spki.pem")
        #expect(Array(text.utf8) == openssl)
    }

    @Test func missingEndLine() {
        #expect(throws: ASN1Error.self) { try PEMParser.blocks(in: Array("-----BEGIN X-----\nAAAA\n".utf8)) }
    }

    @Test func mismatchedEndLabel() {
        do {
            _ = try PEMParser.blocks(in: Array("-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8))
            Issue.record("expected an error")
        } catch let error as ASN1Error {
            #expect(error.code == .invalidPEM)
            #expect(error.offset == 37)
        } catch {
            Issue.record("wrong error")
        }
    }

    @Test func badBase64NamesTheFileOffset() {
        let text = "-----BEGIN X-----\nAAAA\nAA*A\n-----END X-----\n"
        do {
            _ = try PEMParser.blocks(in: Array(text.utf8))
            Issue.record("expected an error")
        } catch let error as ASN1Error {
            #expect(error.code == .invalidBase64)
            #expect(error.offset == 25) // the '*'
        } catch {
            Issue.record("wrong error")
        }
    }

    @Test func noBlockAtAll() {
        #expect(throws: ASN1Error.self) { try PEMParser.blocks(in: Array("just text".utf8)) }
        #expect(!PEMParser.containsPEM(Array("just text".utf8)))
    }

    @Test("base64 round trip", arguments: 0..<40)
    func base64RoundTrip(length: Int) throws {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 11) }
        #expect(try Base64.decode(Array(Base64.encode(bytes).utf8)) == bytes)
    }

    @Test("malformed base64", arguments: ["A", "AB=C", "AB===", "A===", "AB=", "ABC=D", "AB#C", "AR=="])
    func malformedBase64(_ text: String) {
        #expect(throws: ASN1Error.self) { try Base64.decode(Array(text.utf8)) }
    }

    @Test func base64KnownVectors() throws {
        #expect(Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(Base64.encode(Array("fooba".utf8)) == "Zm9vYmE=")
        #expect(Base64.encode(Array("foob".utf8)) == "Zm9vYg==")
        #expect(try Base64.decode(Array("Zm9v\nYmE=".utf8)) == Array("fooba".utf8))
        #expect(try Base64.decode(Array("Zm9vYg".utf8)) == Array("foob".utf8))
    }
}
