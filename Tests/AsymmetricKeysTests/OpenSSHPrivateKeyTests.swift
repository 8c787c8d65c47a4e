import ASN1Kit
import CofferErrors
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import AsymmetricKeys

@Suite("OpenSSH private keys")
struct OpenSSHPrivateKeyTests {
    static var fixtures: [SSHFixtures.Fact] {
        get throws { try SSHFixtures.facts(format: "openssh-private") }
    }

    static var encryptedFixtures: [SSHFixtures.Fact] {
        get throws { try fixtures.filter { $0.encrypted == true } }
    }

    /// The base64 blob of an armored key.
    static func blob(_ text: [UInt8]) throws -> [UInt8] {
        let blocks = try PEMParser.blocks(in: text)
        return try #require(blocks.first).bytes
    }

    @Test("fixtures decode to the numbers, comment and cipher ssh-keygen reported", arguments: try fixtures)
    func decodeFixture(_ fact: SSHFixtures.Fact) throws {
        let decoded = try OpenSSHPrivateKey.decode(try SSHFixtures.bytes(fact.file), passphrase: SSHFixtures.provider)
        #expect(decoded.key.rsa?.publicKey.modulusHex == fact.modulus)
        #expect(decoded.key.rsa?.publicKey.publicExponentHex == fact.publicExponent)
        #expect(decoded.key.rsa?.bits == fact.bits)
        #expect(decoded.comment == fact.comment)
        #expect(decoded.encryption?.cipher == fact.cipher)
        #expect(decoded.encryption?.kdf == (fact.encrypted == true ? "bcrypt-pbkdf" : nil))
        #expect(try decoded.key.publicKey().fingerprintSHA256 == fact.fingerprintSHA256)
    }

    @Test("the public key, cipher and rounds are readable without the passphrase", arguments: try fixtures)
    func publicPart(_ fact: SSHFixtures.Fact) throws {
        let part = try OpenSSHPrivateKey.publicKey(try SSHFixtures.bytes(fact.file))
        #expect(part.key.rsa?.modulusHex == fact.modulus)
        #expect(part.key.fingerprintSHA256 == fact.fingerprintSHA256)
        #expect(part.encryption?.cipher == fact.cipher)
        #expect(part.rounds == (fact.encrypted == true ? 16 : 0))
    }

    @Test("the decoded key, with the computed CRT exponents, is exactly openssl's PKCS#1 key",
          arguments: ["rsa1024", "rsa2048", "rsa3072", "rsa4096", "rsa2048-e3"])
    func sameAsPKCS1(_ name: String) throws {
        let decoded = try OpenSSHPrivateKey.decode(try SSHFixtures.bytes("\(name).openssh"), passphrase: nil)
        let pkcs1 = try SSHFixtures.bytes("\(name).pkcs1.der")
        #expect(decoded.key.rsa?.pkcs1DER.bytes == pkcs1)
    }

    @Test("every cipher ssh-keygen offers decrypts to the same key", arguments: try encryptedFixtures)
    func encryptedFixturesMatch(_ fact: SSHFixtures.Fact) throws {
        let decoded = try OpenSSHPrivateKey.decode(try SSHFixtures.bytes(fact.file), passphrase: SSHFixtures.provider)
        let plain = try OpenSSHPrivateKey.decode(try SSHFixtures.bytes("rsa2048.openssh"), passphrase: nil)
        #expect(decoded.key.rsa?.pkcs1DER == plain.key.rsa?.pkcs1DER)
    }

    @Test("a wrong passphrase is .wrongPassphrase, distinct from malformed", arguments: try encryptedFixtures)
    func wrongPassphrase(_ fact: SSHFixtures.Fact) throws {
        let bytes = try SSHFixtures.bytes(fact.file)
        let error = #expect(throws: KeyError.self) {
            try OpenSSHPrivateKey.decode(bytes, passphrase: SSHFixtures.provider("not the passphrase"))
        }
        #expect(error?.code == .wrongPassphrase)
        #expect(error?.reason.contains("wrong passphrase, or the key is damaged") == true)
    }

    @Test("an encrypted key without a passphrase asks for one")
    func passphraseRequired() throws {
        let bytes = try SSHFixtures.bytes("rsa2048.openssh-aes256-ctr")
        #expect(throws: KeyError(.passphraseRequired, "")) { try OpenSSHPrivateKey.decode(bytes, passphrase: nil) }
        #expect(throws: KeyError(.passphraseRequired, "")) { try OpenSSHPrivateKey.decode(bytes, passphrase: { _ in nil }) }
        #expect(throws: KeyError(.wrongPassphrase, "")) { try OpenSSHPrivateKey.decode(bytes, passphrase: SSHFixtures.provider("")) }
    }

    @Test("the raw openssh-key-v1 blob decodes like the armored file")
    func rawBlob() throws {
        let text = try SSHFixtures.bytes("rsa1024.openssh")
        let fromText = try OpenSSHPrivateKey.decode(text, passphrase: nil)
        let fromBlob = try OpenSSHPrivateKey.decode(try Self.blob(text), passphrase: nil)
        #expect(fromText.key.rsa?.pkcs1DER == fromBlob.key.rsa?.pkcs1DER)
        #expect(fromBlob.comment == "coffer-rsa1024")
    }

    @Test("a key of another type where RSA is needed is named", arguments: ["ed25519-ssh.openssh"])
    func nonRSA(_ file: String) throws {
        let error = #expect(throws: KeyError.self) {
            try OpenSSHPrivateKey.decode(try SSHFixtures.bytes(file), passphrase: nil).key.requireRSA(for: "RSA decryption")
        }
        #expect(error?.code == .unsupportedAlgorithm)
        #expect(error?.algorithm == "ed25519")
    }

    // MARK: Writing

    @Test("unencrypted output is byte-identical to ssh-keygen's apart from the random check numbers",
          arguments: ["rsa1024", "rsa2048", "rsa3072", "rsa4096", "rsa2048-e3"])
    func unencryptedIdentical(_ name: String) throws {
        let original = try SSHFixtures.bytes("\(name).openssh")
        let decoded = try OpenSSHPrivateKey.decode(original, passphrase: nil)
        let written = try OpenSSHPrivateKey.encode(decoded.key, comment: decoded.comment, passphrase: nil)
        var ours = try Self.blob(Array(written.utf8))
        var theirs = try Self.blob(original)
        #expect(ours.count == theirs.count)
        // The private section follows the public blob; its first 8 bytes are the two check numbers.
        var reader = SSHWireReader(theirs[...], context: "test")
        _ = try reader.readBytes(OpenSSHPrivateKey.magic.count)
        for _ in 0..<3 { _ = try reader.readString() }
        _ = try reader.readUInt32()
        _ = try reader.readString()
        let checkOffset = reader.offset + 4
        #expect(ours[checkOffset..<(checkOffset + 4)] == ours[(checkOffset + 4)..<(checkOffset + 8)])
        for index in checkOffset..<(checkOffset + 8) where index < ours.count && index < theirs.count {
            ours[index] = 0
            theirs[index] = 0
        }
        #expect(ours == theirs)
        // And the armor is ssh-keygen's: 70 columns, same line count.
        let ourLines = written.split(separator: "\n")
        let theirLines = String(decoding: original, as: UTF8.self).split(separator: "\n")
        #expect(ourLines.count == theirLines.count)
        #expect(ourLines.dropFirst().dropLast(2).allSatisfy { $0.count == 70 })
        #expect(written.hasSuffix("-----END OPENSSH PRIVATE KEY-----\n"))
    }

    @Test("ssh-keygen loads what we write, unencrypted")
    func sshKeygenLoadsUnencrypted() throws {
        let decoded = try OpenSSHPrivateKey.decode(try SSHFixtures.bytes("rsa2048.openssh"), passphrase: nil)
        let written = try OpenSSHPrivateKey.encode(decoded.key, comment: "written by coffer", passphrase: nil)
        let path = try SSHTool.temporaryFile(Array(written.utf8))
        let line = try #require(try SSHTool.publicLine(privateKeyPath: path))
        #expect(try line == OpenSSHPublicKey.encode(decoded.key.publicKey(), comment: "written by coffer"))
    }

    @Test("ssh-keygen opens what we encrypt, with every cipher",
          arguments: ["aes256-ctr", "aes128-ctr", "aes192-ctr", "aes128-cbc", "aes256-cbc", "aes256-gcm@openssh.com"])
    func sshKeygenOpensEncrypted(_ cipher: String) throws {
        let decoded = try OpenSSHPrivateKey.decode(try SSHFixtures.bytes("rsa1024.openssh"), passphrase: nil)
        let written = try OpenSSHPrivateKey.encode(decoded.key, comment: "enc", passphrase: SecureBytes(Array("s3cret pass".utf8)), cipher: cipher)
        let path = try SSHTool.temporaryFile(Array(written.utf8))
        let line = try #require(try SSHTool.publicLine(privateKeyPath: path, passphrase: "s3cret pass"))
        #expect(try line == OpenSSHPublicKey.encode(decoded.key.publicKey(), comment: "enc"))
        #expect(try SSHTool.publicLine(privateKeyPath: path, passphrase: "wrong") == nil)
        // And we read it back.
        let back = try OpenSSHPrivateKey.decode(Array(written.utf8), passphrase: SSHFixtures.provider("s3cret pass"))
        #expect(back.key.rsa?.pkcs1DER == decoded.key.rsa?.pkcs1DER)
        #expect(back.encryption?.cipher == cipher)
        #expect(back.comment == "enc")
    }

    @Test("ssh-keygen re-encrypts a key we wrote and we read its output", arguments: [1, 32])
    func roundsAndReencrypt(_ rounds: Int) throws {
        let decoded = try OpenSSHPrivateKey.decode(try SSHFixtures.bytes("rsa1024.openssh"), passphrase: nil)
        let written = try OpenSSHPrivateKey.encode(decoded.key, comment: nil, passphrase: SecureBytes(Array("one".utf8)), rounds: rounds)
        let path = try SSHTool.temporaryFile(Array(written.utf8))
        let changed = try SSHTool.run("ssh-keygen", ["-q", "-p", "-P", "one", "-N", "two", "-f", path])
        #expect(changed.status == 0)
        let reread = try OpenSSHPrivateKey.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))), passphrase: SSHFixtures.provider("two"))
        #expect(reread.key.rsa?.pkcs1DER == decoded.key.rsa?.pkcs1DER)
    }

    @Test("an empty passphrase writes an unencrypted key, as ssh-keygen does")
    func emptyPassphrase() throws {
        let decoded = try OpenSSHPrivateKey.decode(try SSHFixtures.bytes("rsa1024.openssh"), passphrase: nil)
        let written = try OpenSSHPrivateKey.encode(decoded.key, comment: nil, passphrase: SecureBytes([]))
        let back = try OpenSSHPrivateKey.decode(Array(written.utf8), passphrase: nil)
        #expect(back.encryption == nil)
        #expect(back.comment == nil)
    }

    @Test("bad writer arguments")
    func writerArguments() throws {
        let decoded = try OpenSSHPrivateKey.decode(try SSHFixtures.bytes("rsa1024.openssh"), passphrase: nil)
        let pass = SecureBytes(Array("x".utf8))
        #expect(throws: KeyError(.invalidArgument, "")) { try OpenSSHPrivateKey.encode(decoded.key, comment: nil, passphrase: pass, cipher: "3des-cbc") }
        #expect(throws: KeyError(.invalidArgument, "")) { try OpenSSHPrivateKey.encode(decoded.key, comment: nil, passphrase: pass, cipher: "none") }
        #expect(throws: KeyError(.invalidArgument, "")) { try OpenSSHPrivateKey.encode(decoded.key, comment: nil, passphrase: pass, rounds: 0) }
        let threePrime = try RSAPrivateKey(pkcs1DER: try PEMParser.blocks(in: try SSHFixtures.bytes("rsa2048-3prime.pkcs1.pem"))[0].bytes)
        #expect(throws: KeyError(.cannotConvert, "")) { try OpenSSHPrivateKey.encode(.rsa(threePrime), comment: nil, passphrase: nil) }
    }
}
