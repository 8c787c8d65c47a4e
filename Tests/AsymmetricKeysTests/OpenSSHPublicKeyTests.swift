import ASN1Kit
import CofferErrors
import CofferTestSupport
import Foundation
import Testing

@testable import AsymmetricKeys

@Suite("OpenSSH public keys")
struct OpenSSHPublicKeyTests {
    static var fixtures: [SSHFixtures.Fact] {
        get throws { try SSHFixtures.facts(format: "openssh-public") }
    }

    @Test("fixtures decode to the numbers and comment ssh-keygen reported", arguments: try fixtures)
    func decodeFixture(_ fact: SSHFixtures.Fact) throws {
        let (decoded, comment) = try OpenSSHPublicKey.decode(try SSHFixtures.bytes(fact.file))
        let key = try #require(decoded.rsa)
        #expect(key.modulusHex == fact.modulus)
        #expect(key.publicExponentHex == fact.publicExponent)
        #expect(key.bits == fact.bits)
        #expect(comment == fact.comment)
    }

    @Test("encoding is byte-identical to ssh-keygen -y", arguments: try fixtures)
    func encodeFixture(_ fact: SSHFixtures.Fact) throws {
        let bytes = try SSHFixtures.bytes(fact.file)
        let (key, comment) = try OpenSSHPublicKey.decode(bytes)
        #expect(Array(try OpenSSHPublicKey.encode(key, comment: comment).utf8) == bytes)
    }

    @Test("without a comment the line ends after the base64, as ssh-keygen -y writes it")
    func noComment() throws {
        let path = try SSHTool.sshKeygen(bits: 1024, comment: "")
        let expected = try #require(try SSHTool.publicLine(privateKeyPath: path))
        let (key, comment) = try OpenSSHPublicKey.decode(Array(expected.utf8))
        #expect(comment == nil)
        #expect(try OpenSSHPublicKey.encode(key, comment: nil) == expected)
        #expect(try OpenSSHPublicKey.encode(key, comment: "") == expected)
        #expect(!expected.hasSuffix(" \n"))
    }

    @Test("the wire blob is the base64 field of the line")
    func wireBlob() throws {
        let text = try SSHFixtures.bytes("rsa2048.openssh.pub")
        let (key, _) = try OpenSSHPublicKey.decode(text)
        let field = String(decoding: text, as: UTF8.self).split(separator: " ")[1]
        #expect(Base64.encode(try OpenSSHPublicKey.wireBlob(key)) == field)
    }

    @Test("authorized_keys lines with options, quotes, comments and blank lines")
    func authorizedKeys() throws {
        let line = String(decoding: try SSHFixtures.bytes("rsa2048.openssh.pub"), as: UTF8.self)
        let body = line.split(separator: " ")[1]
        let other = String(decoding: try SSHFixtures.bytes("rsa1024.openssh.pub"), as: UTF8.self).split(separator: " ")[1]
        let text = """
            # keys for deploy

            command="echo \\"hi, there\\"; ls -l",no-pty,from="10.0.0.1,192.168.0.0/24" ssh-rsa \(body) deploy key  with  spaces
            \tno-agent-forwarding ssh-rsa \(other)\r
            ssh-rsa \(body)
            """
        let keys = try OpenSSHPublicKey.decodeAll(Array(text.utf8))
        #expect(keys.count == 3)
        #expect(keys[0].comment == "deploy key  with  spaces")
        #expect(keys[1].comment == nil)
        #expect(keys[1].key.bits == 1024)
        #expect(keys[2].comment == nil)
        #expect(keys[0].key == keys[2].key)
        // `decode` wants exactly one key.
        #expect(throws: KeyError(.malformed, "")) { try OpenSSHPublicKey.decode(Array(text.utf8)) }
    }

    @Test("non-RSA key types read as their algorithm; where RSA is needed they are named")
    func nonRSAFixture() throws {
        let key = try OpenSSHPublicKey.decode(try SSHFixtures.bytes("ed25519-ssh.openssh.pub")).key
        let error = #expect(throws: KeyError.self) { try key.requireRSA(for: "RSA encryption") }
        #expect(error?.code == .unsupportedAlgorithm)
        #expect(error?.algorithm == "ed25519")
        #expect(try OpenSSHPublicKey.encode(key, comment: nil).hasPrefix("ssh-ed25519 "))
        #expect(error?.reason.contains("Ed25519") == true)
    }

    @Test("ECDSA and DSA keys from ssh-keygen are read", arguments: [("ecdsa", "ecdsa-sha2-nistp256", "ec"), ("dsa", "ssh-dss", "dsa")])
    func nonRSAGenerated(_ type: String, _ name: String, _ identifier: String) throws {
        let path: String
        do {
            path = try SSHTool.sshKeygen(type: type, bits: type == "dsa" ? 1024 : 256)
        } catch {
            // This ssh-keygen was built without the algorithm; the ECDSA case always runs.
            #expect(type == "dsa")
            return
        }
        let text = Array(try Data(contentsOf: URL(fileURLWithPath: path + ".pub")))
        if type == "dsa" {
            // DSA keys are read (read only); an operation that needs RSA names the algorithm.
            let key = try OpenSSHPublicKey.decode(text).key
            #expect(key.algorithm.rawValue == identifier)
            #expect(try OpenSSHPublicKey.encode(key, comment: "test@coffer") == String(decoding: text, as: UTF8.self))
            let error = #expect(throws: KeyError.self) { try key.requireRSA(for: "RSA encryption") }
            #expect(error?.reason.contains("DSA") == true)
        } else {
            // ECDSA reads as an EC key; an operation that needs RSA names it.
            let key = try OpenSSHPublicKey.decode(text).key
            let error = #expect(throws: KeyError.self) { try key.requireRSA(for: "RSA encryption") }
            #expect(error?.code == .unsupportedAlgorithm)
            #expect(error?.algorithm == identifier)
            #expect(try OpenSSHPublicKey.encode(key, comment: nil).hasPrefix(name + " "))
        }
    }

    // MARK: Malformed input

    static func blob(_ build: (inout SSHWireWriter) -> Void) -> String {
        var writer = SSHWireWriter()
        build(&writer)
        return Base64.encode(writer.bytes)
    }

    static func expectMalformed(_ text: String, offset: Int? = nil, code: KeyError.Code = .malformed, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: KeyError.self, sourceLocation: sourceLocation) { try OpenSSHPublicKey.decode(Array(text.utf8)) }
        #expect(error?.code == code, sourceLocation: sourceLocation)
        if let offset { #expect(error?.offset == offset, sourceLocation: sourceLocation) }
    }

    @Test("bad base64 names the offset of the bad character")
    func badBase64() {
        Self.expectMalformed("ssh-rsa AAAA*AAA comment\n", offset: 12)
        Self.expectMalformed("ssh-rsa AAAAB3NzaC1yc2E=AAA\n")
        Self.expectMalformed("ssh-rsa A\n")
    }

    @Test("a missing base64 field")
    func missingBlob() {
        Self.expectMalformed("ssh-rsa\n")
        Self.expectMalformed("ssh-rsa   \n")
    }

    @Test("the blob's type must match the line's")
    func typeMismatch() {
        let ed = Self.blob { $0.writeString("ssh-ed25519"); $0.writeString([UInt8](repeating: 7, count: 32)) }
        Self.expectMalformed("ssh-rsa \(ed) x\n", offset: 0)
        let rsaBlob = Self.blob { $0.writeString("ssh-rsa"); $0.writeMPInt(magnitude: [1, 0, 1]); $0.writeMPInt(magnitude: [0xC5]) }
        // The line says Ed25519 and the blob RSA: malformed, at the blob.
        Self.expectMalformed("ssh-ed25519 \(rsaBlob)\n", offset: 0)
        // A DSA line with an RSA blob is as malformed as any other pair (DSA was refused unread
        // before it was read).
        Self.expectMalformed("ssh-dss \(rsaBlob)\n", offset: 0)
    }

    @Test("length overruns, truncation, trailing bytes and bad mpints inside the blob")
    func blobDamage() {
        let overrun = Self.blob { $0.writeString("ssh-rsa"); $0.writeUInt32(1000); $0.writeBytes([1, 0, 1]) }
        Self.expectMalformed("ssh-rsa \(overrun)\n", offset: 11)
        let truncated = Self.blob { $0.writeString("ssh-rsa"); $0.writeMPInt(magnitude: [1, 0, 1]) }
        Self.expectMalformed("ssh-rsa \(truncated)\n", offset: 18)
        let trailing = Self.blob { $0.writeString("ssh-rsa"); $0.writeMPInt(magnitude: [3]); $0.writeMPInt(magnitude: [0x55]); $0.writeBytes([0]) }
        Self.expectMalformed("ssh-rsa \(trailing)\n", offset: 21)
        let negative = Self.blob { $0.writeString("ssh-rsa"); $0.writeMPInt(magnitude: [3]); $0.writeString([0x85]) }
        Self.expectMalformed("ssh-rsa \(negative)\n", offset: 16)
        let nonMinimal = Self.blob { $0.writeString("ssh-rsa"); $0.writeString([0, 3]); $0.writeMPInt(magnitude: [0x55]) }
        Self.expectMalformed("ssh-rsa \(nonMinimal)\n", offset: 11)
        let zeroModulus = Self.blob { $0.writeString("ssh-rsa"); $0.writeMPInt(magnitude: [3]); $0.writeMPInt(magnitude: [UInt8]()) }
        Self.expectMalformed("ssh-rsa \(zeroModulus)\n")
    }

    @Test("unterminated quotes in options, unknown key types, empty input")
    func lineDamage() {
        Self.expectMalformed("command=\"ls ssh-rsa AAAA\n", offset: 8)
        Self.expectMalformed("ssh-foo AAAA\n", code: .unrecognizedFormat)
        Self.expectMalformed("", code: .unrecognizedFormat)
        Self.expectMalformed("# only a comment\n\n", code: .unrecognizedFormat)
    }

    @Test("every truncation of a real line fails cleanly or yields the same key")
    func truncations() throws {
        let bytes = try SSHFixtures.bytes("rsa1024.openssh.pub")
        let (full, _) = try OpenSSHPublicKey.decode(bytes)
        for length in 0..<bytes.count {
            do {
                let (key, _) = try OpenSSHPublicKey.decode(Array(bytes[..<length]))
                #expect(key == full)   // only the comment was cut
            } catch let error as KeyError {
                #expect([.malformed, .unrecognizedFormat].contains(error.code))
            }
        }
    }

    @Test("random bytes never crash the parser")
    func randomBytes() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            var bytes = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if round % 2 == 0 { bytes = Array("ssh-rsa ".utf8) + Array(Base64.encode(bytes).utf8) }
            #expect(throws: KeyError.self) { try OpenSSHPublicKey.decode(bytes) }
        }
    }
}
