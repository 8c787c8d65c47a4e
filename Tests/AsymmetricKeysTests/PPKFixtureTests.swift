import AsymmetricKeys
import CofferTestSupport
import CryptoOpenSSL
import Foundation
import Testing
import KeyCodec

/// PuTTY key files written by puttygen 0.78 (Fixtures/keys/ppk) read as puttygen reported them.
@Suite("PPK fixtures from puttygen")
struct PPKFixtureTests {
    @Test("the fixtures are all there: six key types, v2 and v3, plain and encrypted, three Argon2 flavours")
    func inventory() throws {
        let facts = try PPKFixtures.facts
        #expect(facts.count == 26)
        #expect(Set(facts.map(\.keyType)) == ["ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "ssh-ed25519", "ssh-ed448"])
        #expect(Set(facts.compactMap(\.kdf)) == ["argon2id", "argon2i", "argon2d", "ppk-v2-sha1"])
    }

    @Test("every fixture decodes to the key, comment, fingerprints and encryption puttygen reported", arguments: try PPKFixtures.facts)
    func decodes(_ fact: PPKFact) throws {
        let decoded = try KeyDecoder.decode(try PPKFixtures.bytes(fact.file), source: fact.file, passphrase: PPKFixtures.provider)
        #expect(decoded.format == .ppk)
        #expect(decoded.encoding == .text)
        #expect(decoded.comment == fact.comment)
        #expect(decoded.encryption?.cipher == fact.cipher)
        #expect(decoded.encryption?.kdf == fact.kdf)
        let key = try #require(decoded.key.privateKey)
        let publicKey = try key.publicKey()
        #expect(publicKey.algorithm.rawValue == fact.algorithm)
        #expect(publicKey.bits == Self.sshKeygenBits(fact))
        #expect(publicKey.fingerprintSHA256 == fact.fingerprintSHA256)
        #expect(publicKey.fingerprintMD5 == fact.fingerprintMD5)
        #expect(try OpenSSHPublicKey.encode(publicKey, comment: fact.comment) == fact.publicOpenSSH + "\n")
        #expect(try PPKFixtures.pkcs8(key) == PPKFixtures.pkcs8(try PPKFixtures.expectedKey(fact)))
    }

    /// The size `ssh-keygen -l` (and Coffer) gives: puttygen counts Ed25519 as 255 bits and Ed448
    /// as 448 where ssh-keygen says 256 and 456; RSA and EC agree.
    static func sshKeygenBits(_ fact: PPKFact) -> Int {
        switch fact.keyType {
        case "ssh-ed25519": 256
        case "ssh-ed448": 456
        default: fact.bits
        }
    }

    @Test("the public part reads without a passphrase", arguments: try PPKFixtures.facts.filter(\.encrypted))
    func publicWithoutPassphrase(_ fact: PPKFact) throws {
        let shown = try PPKPrivateKey.publicKey(try PPKFixtures.bytes(fact.file))
        #expect(shown.key.fingerprintSHA256 == fact.fingerprintSHA256)
        #expect(shown.comment == fact.comment)
        #expect(shown.encryption?.kdf == fact.kdf)
        let error = try #require(throws: KeyError.self) {
            _ = try PPKPrivateKey.decode(try PPKFixtures.bytes(fact.file), passphrase: nil)
        }
        #expect(error.code == .passphraseRequired)
    }

    @Test("an unencrypted file asks for no passphrase", arguments: try PPKFixtures.facts.filter { !$0.encrypted })
    func noPromptWhenPlain(_ fact: PPKFact) throws {
        let decoded = try PPKPrivateKey.decode(try PPKFixtures.bytes(fact.file), passphrase: { _ in
            Issue.record("asked for a passphrase for an unencrypted file")
            return nil
        })
        #expect(decoded.encryption == nil)
    }

    @Test("re-encoding a plain file reproduces puttygen's bytes", arguments: try PPKFixtures.facts.filter { !$0.encrypted })
    func reencodesByteForByte(_ fact: PPKFact) throws {
        let text = try PPKFixtures.text(fact.file)
        let decoded = try PPKFixtures.decode(text)
        let again = try PPKPrivateKey.encode(decoded.key, comment: decoded.comment, passphrase: nil,
                                             version: fact.version == 2 ? .v2 : .v3)
        #expect(again == text)
    }

    @Test("encrypted files round-trip through Coffer (v2 and v3, every Argon2 flavour)", arguments: try PPKFixtures.plainV3)
    func encryptedRoundTrip(_ fact: PPKFact) throws {
        let key = try PPKFixtures.decode(try PPKFixtures.text(fact.file)).key
        var settings: [(PPKPrivateKey.Version, PPKPrivateKey.Argon2Parameters)] = [(.v2, .default), (.v3, .default)]
        for variant in [Argon2.Variant.argon2i, .argon2d] {
            settings.append((.v3, PPKPrivateKey.Argon2Parameters(variant: variant, memoryKiB: 1024, passes: 2, parallelism: 2)))
        }
        for (version, argon2) in settings {
            let text = try PPKPrivateKey.encode(key, comment: "round trip", passphrase: PPKFixtures.passphrase, version: version, argon2: argon2)
            #expect(text.hasPrefix("PuTTY-User-Key-File-\(version.rawValue): \(fact.keyType)\nEncryption: aes256-cbc\nComment: round trip\n"))
            let decoded = try PPKFixtures.decode(text, passphrase: SSHFixtures.passphraseText)
            #expect(try PPKFixtures.pkcs8(decoded.key) == PPKFixtures.pkcs8(key))
            #expect(decoded.comment == "round trip")
            #expect(decoded.encryption?.kdf == (version == .v2 ? "ppk-v2-sha1" : argon2.variant.rawValue))
        }
    }

    @Test("a wrong passphrase is reported as such, without the passphrase", arguments: try PPKFixtures.facts.filter(\.encrypted))
    func wrongPassphrase(_ fact: PPKFact) throws {
        let error = try #require(throws: KeyError.self) {
            _ = try PPKFixtures.decode(try PPKFixtures.text(fact.file), passphrase: "not-the-passphrase")
        }
        #expect(error.code == .wrongPassphrase)
        #expect(error.reason.contains("wrong passphrase, or the file is damaged"))
        #expect(!error.reason.contains("not-the-passphrase"))
    }

    @Test("keys PPK cannot hold are refused: X25519, X448, three-prime RSA")
    func cannotHold() throws {
        for name in ["x25519.pkcs8.pem", "x448.pkcs8.pem", "rsa2048-3prime.pkcs8.pem"] {
            let key = try #require(try KeyDecoder.decode(try SSHFixtures.bytes(name), source: name, passphrase: nil).key.privateKey)
            let error = try #require(throws: KeyError.self) {
                _ = try KeyEncoder.encode(.privateKey(key), as: .ppk, der: false, comment: nil, encryption: nil)
            }
            #expect(error.code == .cannotConvert, "\(name)")
        }
    }
}
