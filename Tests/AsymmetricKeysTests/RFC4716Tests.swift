import ASN1Kit
import CofferTestSupport
import Foundation
import Testing

@testable import AsymmetricKeys

@Suite("RFC 4716 public keys")
struct RFC4716Tests {
    static var fixtures: [SSHFixtures.Fact] {
        get throws { try SSHFixtures.facts(format: "rfc4716-public") }
    }

    @Test("fixtures decode to the numbers and comment ssh-keygen wrote", arguments: try fixtures)
    func decodeFixture(_ fact: SSHFixtures.Fact) throws {
        let (decoded, comment) = try RFC4716PublicKey.decode(try SSHFixtures.bytes(fact.file))
        let key = try #require(decoded.rsa)
        #expect(key.modulusHex == fact.modulus)
        #expect(key.publicExponentHex == fact.publicExponent)
        #expect(key.bits == fact.bits)
        #expect(key.fingerprintSHA256 == fact.fingerprintSHA256)
        #expect(comment == fact.comment)
    }

    @Test("encoding is byte-identical to ssh-keygen -e -m RFC4716", arguments: try fixtures)
    func encodeFixture(_ fact: SSHFixtures.Fact) throws {
        let bytes = try SSHFixtures.bytes(fact.file)
        let (key, comment) = try RFC4716PublicKey.decode(bytes)
        #expect(Array(try RFC4716PublicKey.encode(key, comment: comment).utf8) == bytes)
    }

    @Test("a fresh key exported by ssh-keygen encodes identically")
    func freshKey() throws {
        let path = try SSHTool.sshKeygen(bits: 2048)
        let exported = try SSHTool.run("ssh-keygen", ["-e", "-m", "RFC4716", "-f", path + ".pub"])
        #expect(exported.status == 0)
        let (key, comment) = try RFC4716PublicKey.decode(exported.stdout)
        let (openssh, _) = try OpenSSHPublicKey.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path + ".pub"))))
        #expect(key == openssh)
        #expect(try RFC4716PublicKey.encode(key, comment: comment) == exported.text)
    }

    @Test("what we write, ssh-keygen -i reads back to the same key — long comments included",
          arguments: [nil, "short", String(repeating: "a long comment, ", count: 12) + "ünïcödé"])
    func sshKeygenImports(_ comment: String?) throws {
        let (key, _) = try OpenSSHPublicKey.decode(try SSHFixtures.bytes("rsa2048.openssh.pub"))
        let text = try RFC4716PublicKey.encode(key, comment: comment)
        for line in text.split(separator: "\n") { #expect(line.utf8.count <= 72) }
        let path = try SSHTool.temporaryFile(Array(text.utf8), name: "key.rfc4716")
        let imported = try SSHTool.run("ssh-keygen", ["-i", "-m", "RFC4716", "-f", path])
        #expect(imported.status == 0)
        let (back, _) = try OpenSSHPublicKey.decode(imported.stdout)
        #expect(back == key)
        let (decoded, decodedComment) = try RFC4716PublicKey.decode(Array(text.utf8))
        #expect(decoded == key)
        #expect(decodedComment == comment)
    }

    @Test("continuation lines, x- headers, unknown headers, CRLF and text before the key")
    func headers() throws {
        let (key, _) = try OpenSSHPublicKey.decode(try SSHFixtures.bytes("rsa1024.openssh.pub"))
        let body = Base64.encode(try OpenSSHPublicKey.wireBlob(key))
        let text = "some preamble\r\n---- BEGIN SSH2 PUBLIC KEY ----\r\nx-command: /bin/true\r\nComment: \"split \\\r\nacross lines\"\r\nSubject: me\r\n"
            + body.prefix(60) + "\r\n" + body.dropFirst(60) + "\r\n---- END SSH2 PUBLIC KEY ----\r\n\r\n"
        let (decoded, comment) = try RFC4716PublicKey.decode(Array(text.utf8))
        #expect(decoded == key)
        #expect(comment == "split across lines")
    }

    // MARK: Malformed input

    static func expectError(_ text: String, _ code: KeyError.Code = .malformed, offset: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: KeyError.self, sourceLocation: sourceLocation) { try RFC4716PublicKey.decode(Array(text.utf8)) }
        #expect(error?.code == code, sourceLocation: sourceLocation)
        if let offset { #expect(error?.offset == offset, sourceLocation: sourceLocation) }
    }

    static let begin = "---- BEGIN SSH2 PUBLIC KEY ----\n"
    static let end = "---- END SSH2 PUBLIC KEY ----\n"

    @Test("missing markers")
    func markers() {
        Self.expectError("AAAA\n", .unrecognizedFormat)
        Self.expectError(Self.begin + "AAAAB3NzaC1yc2E=\n", offset: 0)
    }

    @Test("bad headers")
    func badHeaders() {
        Self.expectError(Self.begin + ": no tag\nAAAA\n" + Self.end, offset: 32)
        Self.expectError(Self.begin + "bad tag: x\nAAAA\n" + Self.end, offset: 32)
        Self.expectError(Self.begin + String(repeating: "t", count: 65) + ": x\nAAAA\n" + Self.end, offset: 32)
        Self.expectError(Self.begin + "Comment: " + String(repeating: "v", count: 1025) + "\nAAAA\n" + Self.end, offset: 32)
        Self.expectError(Self.begin + "Comment: dangling \\\n" + Self.end, offset: 32)
    }

    @Test("bad base64 names the offset, empty bodies and trailing text are errors")
    func badBody() {
        Self.expectError(Self.begin + "AAAA%AAA\n" + Self.end, offset: 36)
        Self.expectError(Self.begin + Self.end)
        Self.expectError(Self.begin + "AAAAB3NzaC1yc2EAAAADAQABAAAAAQM=\n" + Self.end + "more\n", offset: 95)
    }

    @Test("non-RSA keys read as their algorithm and are named where RSA is needed")
    func nonRSA() throws {
        var writer = SSHWireWriter()
        writer.writeString("ssh-ed25519")
        writer.writeString([UInt8](repeating: 1, count: 32))
        let text = Self.begin + Base64.encode(writer.bytes) + "\n" + Self.end
        let error = #expect(throws: KeyError.self) { try RFC4716PublicKey.decode(Array(text.utf8)).key.requireRSA(for: "RSA encryption") }
        #expect(error?.code == .unsupportedAlgorithm)
        #expect(error?.algorithm == "ed25519")
    }

    @Test("every truncation of a real file fails cleanly")
    func truncations() throws {
        let bytes = try SSHFixtures.bytes("rsa1024.rfc4716.pub")
        for length in 0..<(bytes.count - 1) {
            #expect(throws: KeyError.self) { try RFC4716PublicKey.decode(Array(bytes[..<length])) }
        }
    }

    @Test("random bytes inside the armor never crash the parser")
    func randomBytes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0..<150, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Array(Self.begin.utf8) + bytes + Array(Self.end.utf8)
            #expect(throws: KeyError.self) { try RFC4716PublicKey.decode(text) }
        }
    }
}
