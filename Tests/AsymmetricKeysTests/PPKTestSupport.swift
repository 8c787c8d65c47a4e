import AsymmetricKeys
import CofferTestSupport
import CryptoOpenSSL
import Foundation

/// The PuTTY key fixtures (Fixtures/keys/ppk, made by puttygen) and helpers for the PPK tests.
enum PPKFixtures {
    static var facts: [PPKFact] {
        get throws { try PPKFact.all }
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: PPKFact.directory.appendingPathComponent(name)))
    }

    static func text(_ name: String) throws -> String {
        String(decoding: try bytes(name), as: UTF8.self)
    }

    static var passphrase: SecureBytes { SSHFixtures.passphrase }
    static let provider: PassphraseProvider = { _ in SSHFixtures.passphrase }
    static let passphraseFile = KeyFact.directory.appendingPathComponent("passphrase.txt").path

    /// The private key the fixture holds, as the OpenSSH file it was made from (or that puttygen
    /// exported) reads.
    static func expectedKey(_ fact: PPKFact) throws -> PrivateKey {
        try OpenSSHPrivateKey.decode(try bytes(fact.privateOpenSSH), passphrase: nil).key
    }

    /// PKCS#8 DER of a private key, to compare keys.
    static func pkcs8(_ key: PrivateKey) throws -> [UInt8] {
        try PKCS8PrivateKey.encode(key).bytes
    }

    /// One plain v3 fixture per key type.
    static var plainV3: [PPKFact] {
        get throws { try facts.filter { $0.version == 3 && !$0.encrypted } }
    }

    /// Decodes PPK text with `passphrase` (`nil`: none offered).
    static func decode(_ text: String, passphrase: String? = nil, limits: KDFLimits = .default) throws -> (key: PrivateKey, comment: String?, encryption: KeyEncryptionInfo?) {
        try KDFLimits.$current.withValue(limits) {
            try PPKPrivateKey.decode(Array(text.utf8), passphrase: passphrase.map { SSHFixtures.provider($0) })
        }
    }

    /// `text` with line `number` (1-based) replaced by `line`.
    static func replacingLine(_ number: Int, in text: String, with line: String) -> String {
        var lines = text.components(separatedBy: "\n")
        lines[number - 1] = line
        return lines.joined(separator: "\n")
    }

    /// The 1-based number of the line starting with `prefix`.
    static func lineNumber(of prefix: String, in text: String) -> Int? {
        text.components(separatedBy: "\n").firstIndex { $0.hasPrefix(prefix) }.map { $0 + 1 }
    }
}
