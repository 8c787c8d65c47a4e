import Foundation

/// One entry of `Fixtures/keys/ppk/facts.json`: what puttygen reported about a PuTTY key file that
/// `tools/make-fixtures ppk` made with it.
public struct PPKFact: Decodable, Sendable, CustomStringConvertible {
    public var file: String
    /// The fixture key the file was made from (`rsa2048`, `ed25519-ssh`, …).
    public var source: String
    /// `rsa`, `ec`, `ed25519`, `ed448`.
    public var algorithm: String
    /// The SSH key type (`ecdsa-sha2-nistp256`).
    public var keyType: String
    public var version: Int
    public var encrypted: Bool
    public var bits: Int
    public var fingerprintSHA256: String
    public var fingerprintMD5: String
    public var comment: String
    /// `puttygen -O public-openssh` of the file.
    public var publicOpenSSH: String
    /// The OpenSSH private key the file holds, relative to `Fixtures/keys/ppk`.
    public var privateOpenSSH: String
    public var cipher: String?
    /// `argon2id`, `argon2i`, `argon2d` or `ppk-v2-sha1`.
    public var kdf: String?

    public var description: String { file }

    /// The PPK fixtures' folder.
    public static let directory = KeyFact.directory.appendingPathComponent("ppk")

    /// Every entry of `facts.json`; throws when the file is missing, unreadable, malformed or
    /// empty, so a test over the facts fails instead of passing on none.
    public static var all: [PPKFact] {
        get throws { try loaded.get() }
    }

    private static let loaded = Result { () throws(FixtureFacts.Unusable) in
        try FixtureFacts.load([PPKFact].self, in: directory)
    }

    /// The path of the fixture file.
    public var path: String { Self.directory.appendingPathComponent(file).path }
}
