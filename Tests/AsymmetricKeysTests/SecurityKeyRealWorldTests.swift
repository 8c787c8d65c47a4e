import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing

@testable import AsymmetricKeys
import KeyCodec

/// FIDO security keys (sk-ssh-ed25519@openssh.com, sk-ecdsa-sha2-nistp256@openssh.com) written from
/// OpenSSH's PROTOCOL.u2f layout by tools/realworld/sk-keys.sh and read back by ssh-keygen, whose
/// output is the facts. Before, every one was `.unsupportedAlgorithm`.
@Suite("Security keys: OpenSSH sk-… public lines and private files")
struct SecurityKeyRealWorldTests {
    struct Fact: Decodable, Sendable, CustomTestStringConvertible {
        let name: String
        let application: String
        let flags: UInt8
        let sshKeygenL: String
        let sshKeygenLMD5: String
        let sshKeygenLPrivate: String
        let sshKeygenLEncrypted: String
        let sshKeygenY: String
        let publicLine: String
        var testDescription: String { name }
    }

    static let subject = "sk-keys"
    static var facts: [Fact] { get throws { try FixtureFacts.load([Fact].self, in: RealWorldFixtures.directory(subject)) } }
    static let provider: PassphraseProvider = { _ in SecureBytes(Array("coffer-test-pass".utf8)) }

    /// `256 SHA256:… comment (ED25519-SK)` split into bits, fingerprint, comment and label.
    static func parts(_ line: String) -> (bits: String, fingerprint: String, comment: String, label: String) {
        let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        return (words[0], words[1], words[2..<(words.count - 1)].joined(separator: " "), words[words.count - 1])
    }

    @Test("the facts cover both key types")
    func factsCoverBothTypes() throws {
        let facts = try FixtureFacts.load([Fact].self, in: RealWorldFixtures.directory(Self.subject))
        #expect(Set(facts.map { Self.parts($0.sshKeygenL).label }) == ["(ED25519-SK)", "(ECDSA-SK)"])
    }

    @Test("the public line reads to ssh-keygen -l's fingerprints, and writes back as it was", arguments: try facts)
    func publicLine(fact: Fact) throws {
        let decoded = try KeyDecoder.decode(RealWorldFixtures.bytes(Self.subject, "\(fact.name).pub"), source: "", passphrase: nil)
        let key = try decoded.key.publicKey()
        guard case .securityKey(let sk) = key else { Issue.record("read as \(key.algorithm)"); return }
        let expected = Self.parts(fact.sshKeygenL)
        #expect("\(key.bits)" == expected.bits)
        #expect(key.fingerprintSHA256 == expected.fingerprint)
        #expect(key.fingerprintMD5 == Self.parts(fact.sshKeygenLMD5).fingerprint)
        #expect("(\(key.sshLabel))" == expected.label)
        #expect(sk.applicationText == fact.application)
        #expect(try OpenSSHPublicKey.encode(key, comment: decoded.comment) == fact.publicLine + "\n")
        let rfc4716 = try RFC4716PublicKey.decode(RealWorldFixtures.bytes(Self.subject, "\(fact.name).rfc4716"))
        #expect(rfc4716.key == key)
    }

    @Test("the private file reads with its flags, and its public key is ssh-keygen -y's", arguments: try facts)
    func privateFile(fact: Fact) throws {
        for file in [fact.name, "\(fact.name)-encrypted"] {
            let decoded = try KeyDecoder.decode(RealWorldFixtures.bytes(Self.subject, file), source: file, passphrase: Self.provider)
            guard case .privateKey(.securityKey(let sk)) = decoded.key else { Issue.record("\(file): not a security key"); continue }
            #expect(sk.flags == fact.flags, "\(file)")
            #expect(sk.keyHandle.count == 64, "\(file)")
            #expect(sk.reserved.isEmpty)
            let line = try OpenSSHPublicKey.encode(.securityKey(sk.publicKey), comment: decoded.comment)
            #expect(line == fact.sshKeygenY + "\n", "\(file)")
            #expect(decoded.key.algorithm == (fact.sshKeygenL.hasSuffix("(ED25519-SK)") ? .skEd25519 : .skECDSA))
        }
    }

    @Test("the encrypted file's public key reads without a passphrase, as ssh-keygen -l shows it", arguments: try facts)
    func encryptedPublicPart(fact: Fact) throws {
        let part = try OpenSSHPrivateKey.publicKey(RealWorldFixtures.bytes(Self.subject, "\(fact.name)-encrypted"))
        #expect(part.encryption != nil)
        #expect(part.key.fingerprintSHA256 == Self.parts(fact.sshKeygenLEncrypted).fingerprint)
    }

    @Test("signing and writing private keys need the authenticator")
    func cannotSign() throws {
        let decoded = try KeyDecoder.decode(RealWorldFixtures.bytes(Self.subject, "sk-ed25519"), source: "", passphrase: nil)
        let key = try #require(decoded.key.privateKey)
        let error = try #require(throws: KeyError.self) { try key.sign([1], scheme: .eddsa) }
        #expect(error.reason.contains("authenticator"))
        for format in [KeyOutputFormat.openssh, .pkcs8, .ppk, .jwk] {
            #expect(throws: KeyError.self, "\(format)") { try KeyEncoder.encode(decoded.key, as: format, der: false, comment: nil, encryption: nil) }
        }
        for format in [KeyOutputFormat.spki, .jwkPublic] {
            #expect(throws: KeyError.self, "\(format)") { try KeyEncoder.encode(decoded.key, as: format, der: false, comment: nil, encryption: nil) }
        }
    }

    @Test("damaged blobs are malformed with an offset: wrong curve, empty application, cut short")
    func damagedBlobs() throws {
        func blob(_ fields: [[UInt8]]) -> [UInt8] {
            var writer = SSHWireWriter()
            for field in fields { writer.writeString(field) }
            return writer.bytes
        }
        let type = Array("sk-ssh-ed25519@openssh.com".utf8)
        let key = [UInt8](repeating: 7, count: 32)
        for bad in [blob([type, key, []]), blob([type, key]), blob([type, [UInt8](repeating: 7, count: 31), Array("ssh:".utf8)]),
                    blob([Array("sk-ecdsa-sha2-nistp256@openssh.com".utf8), Array("nistp384".utf8), [4], Array("ssh:".utf8)])] {
            let error = try #require(throws: KeyError.self) { try OpenSSHPublicKey.decodeBlob(bad[...]) }
            #expect(error.code == .malformed)
        }
    }
}
