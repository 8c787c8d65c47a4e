import ASN1Kit
import CofferErrors
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import AsymmetricKeys

/// Keys made by ssh-keygen during the test run, beyond the committed fixtures: odd sizes (no
/// mpint sign byte on n), fresh encryption with unusual passphrases and round counts, and ciphers
/// Coffer does not read.
@Suite("OpenSSH keys made by ssh-keygen now")
struct OpenSSHInteropTests {
    static func read(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test("odd modulus sizes: public line and private file are ssh-keygen's bytes", arguments: [1028, 1031, 1537])
    func oddSizes(_ bits: Int) throws {
        let path = try SSHTool.sshKeygen(bits: bits, comment: "odd size")
        let decoded = try OpenSSHPrivateKey.decode(try Self.read(path), passphrase: nil)
        let key = try #require(decoded.key.rsa)
        #expect(key.bits == bits || key.bits == bits - 1)   // ssh-keygen may round down
        #expect(try decoded.key.consistencyProblems() == [])
        let line = try #require(try SSHTool.publicLine(privateKeyPath: path))
        #expect(try OpenSSHPublicKey.encode(decoded.key.publicKey(), comment: "odd size") == line)
        #expect(try OpenSSHPublicKey.decode(Array(line.utf8)).key == decoded.key.publicKey())

        // Private file: identical once the random check numbers are masked.
        let written = try OpenSSHPrivateKey.encode(decoded.key, comment: decoded.comment, passphrase: nil)
        var ours = try OpenSSHPrivateKeyTests.blob(Array(written.utf8))
        var theirs = try OpenSSHPrivateKeyTests.blob(try Self.read(path))
        #expect(ours.count == theirs.count)
        let checkOffset = try theirs.count - Self.sectionLength(theirs)
        for index in checkOffset..<min(checkOffset + 8, ours.count, theirs.count) {
            ours[index] = 0
            theirs[index] = 0
        }
        #expect(ours == theirs)

        // And openssl agrees on the modulus of the PKCS#1 form we hold.
        let der = try SSHTool.temporaryFile(key.pkcs1DER.bytes, name: "key.der")
        let modulus = try SSHTool.run("openssl", ["rsa", "-inform", "DER", "-in", der, "-noout", "-modulus"])
        let printed = modulus.text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        #expect(printed.hasPrefix("modulus="))
        #expect(String(printed.dropFirst("modulus=".count).drop { $0 == "0" }) == key.publicKey.modulusHex)
    }

    /// The length of the private section (the bytes after its length field) of an unencrypted blob.
    static func sectionLength(_ blob: [UInt8]) throws -> Int {
        var reader = SSHWireReader(blob[...], context: "test")
        _ = try reader.readBytes(OpenSSHPrivateKey.magic.count)
        for _ in 0..<3 { _ = try reader.readString() }
        _ = try reader.readUInt32()
        _ = try reader.readString()
        return try reader.readString().count
    }

    @Test("a key ssh-keygen encrypts now, with a non-ASCII passphrase and 3 rounds",
          arguments: ["aes256-ctr", "aes128-cbc", "aes256-gcm@openssh.com"])
    func freshlyEncrypted(_ cipher: String) throws {
        let path = try SSHTool.temporaryDirectory().appendingPathComponent("id").path
        let passphrase = "pä ss, wörd"
        let made = try SSHTool.run("ssh-keygen", ["-q", "-t", "rsa", "-b", "1024", "-N", passphrase, "-Z", cipher, "-a", "3", "-C", "fresh", "-f", path])
        try #require(made.status == 0, "\(made.stderr)")
        let header = try OpenSSHPrivateKey.publicKey(try Self.read(path))
        #expect(header.rounds == 3)
        #expect(header.encryption?.cipher == cipher)
        let decoded = try OpenSSHPrivateKey.decode(try Self.read(path), passphrase: SSHFixtures.provider(passphrase))
        #expect(decoded.comment == "fresh")
        #expect(try decoded.key.publicKey() == header.key)
        #expect(try decoded.key.consistencyProblems() == [])
        let line = try #require(try SSHTool.publicLine(privateKeyPath: path, passphrase: passphrase))
        #expect(try OpenSSHPublicKey.encode(decoded.key.publicKey(), comment: "fresh") == line)
        #expect(throws: KeyError(.wrongPassphrase, "")) {
            try OpenSSHPrivateKey.decode(try Self.read(path), passphrase: SSHFixtures.provider("pa ss, word"))
        }
    }

    @Test("chacha20-poly1305 keys are recognised and refused as unsupported encryption")
    func chacha() throws {
        let path = try SSHTool.temporaryDirectory().appendingPathComponent("id").path
        let made = try SSHTool.run("ssh-keygen", ["-q", "-t", "rsa", "-b", "1024", "-N", "pass", "-Z", "chacha20-poly1305@openssh.com", "-a", "1", "-f", path])
        try #require(made.status == 0, "\(made.stderr)")
        let error = #expect(throws: KeyError.self) {
            try OpenSSHPrivateKey.decode(try Self.read(path), passphrase: SSHFixtures.provider("pass"))
        }
        #expect(error?.code == .unsupportedEncryption)
        #expect(error?.reason.contains("chacha20-poly1305@openssh.com") == true)
        // The public half is still readable, and the cipher is named.
        #expect(try OpenSSHPrivateKey.publicKey(try Self.read(path)).encryption?.cipher == "chacha20-poly1305@openssh.com")
        let line = try #require(try SSHTool.publicLine(privateKeyPath: path, passphrase: "pass"))
        #expect(try OpenSSHPrivateKey.publicKey(try Self.read(path)).key == OpenSSHPublicKey.decode(Array(line.utf8)).key)
    }
}
