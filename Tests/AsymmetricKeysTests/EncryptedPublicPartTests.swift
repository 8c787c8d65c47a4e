import Testing

@testable import AsymmetricKeys
import KeyCodec

/// `KeyDecoder.encryptedPublicPart`: the public key an encrypted OpenSSH file stores in clear,
/// read with no passphrase, and `nil` for everything it must leave to the full reading.
@Suite("KeyDecoder: the public part of an encrypted key file")
struct EncryptedPublicPartTests {
    @Test("an encrypted OpenSSH key gives the public key of its .pub, armored and as the raw blob")
    func encryptedOpenSSH() throws {
        let expected = try OpenSSHPublicKey.decode(try SSHFixtures.bytes("ed25519-ssh.openssh.pub")).key
        let armored = try SSHFixtures.bytes("ed25519-ssh.openssh-aes256-ctr")
        let part = try #require(try KeyDecoder.encryptedPublicPart(armored))
        #expect(try part.key.publicKey() == expected)
        #expect(!part.key.isPrivate)
        #expect(part.encryption?.cipher == "aes256-ctr")
        #expect(part.format == .opensshPrivate)
        let blob = try OpenSSHPrivateKey.unarmor(armored)
        #expect(try KeyDecoder.encryptedPublicPart(blob)?.key.publicKey() == expected)
    }

    @Test("an unencrypted key, a file of two PEM blocks and other containers are left to decoding (nil)")
    func otherInputs() throws {
        let encrypted = try SSHFixtures.bytes("ed25519-ssh.openssh-aes256-ctr")
        #expect(try KeyDecoder.encryptedPublicPart(try SSHFixtures.bytes("ed25519-ssh.openssh")) == nil)
        #expect(try KeyDecoder.encryptedPublicPart(encrypted + encrypted) == nil)
        #expect(try KeyDecoder.encryptedPublicPart(try SSHFixtures.bytes("ed25519-ssh.openssh.pub")) == nil)
    }
}
