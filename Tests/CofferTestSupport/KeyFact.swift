import Foundation

/// One entry of `Fixtures/keys/facts.json`: what openssl and ssh-keygen reported about a fixture
/// key when `tools/make-fixtures` made it.
public struct KeyFact: Decodable, Sendable, CustomStringConvertible {
    public var file: String
    public var format: String?
    public var encoding: String?
    public var algorithm: String?
    public var `private`: Bool?
    public var encrypted: Bool?
    public var bits: Int?
    public var modulus: String?
    public var publicExponent: String?
    public var fingerprintSHA256: String?
    public var fingerprintMD5: String?
    public var cipher: String?
    public var comment: String?
    /// EC keys: `P-256`, `P-384`, `P-521`, as `openssl pkey -text` names the curve.
    public var curve: String?
    /// Non-RSA keys: the raw public key in lowercase hex, as `openssl pkey -text` (or, for keys only
    /// ssh-keygen reads, the key blob ssh-keygen wrote) shows it.
    public var publicKey: String?

    /// The file name: how a test argument shows.
    public var description: String { file }

    /// The fixture keys' folder.
    public static let directory = ToolProcess.repositoryRoot.appendingPathComponent("Fixtures/keys")

    /// Every entry of `facts.json`; throws when the file is missing, unreadable, malformed or
    /// empty, so a test over the facts fails instead of passing on none.
    public static var all: [KeyFact] {
        get throws { try loaded.get() }
    }

    /// The fixture keys' passphrase (`passphrase.txt`, its line ends trimmed). A missing or empty
    /// file stops the test run with its path, instead of every encrypted-key test failing on a
    /// "wrong passphrase" that is really a missing file.
    public static let passphraseText: String = {
        let url = directory.appendingPathComponent("passphrase.txt")
        guard let raw = try? String(contentsOf: url, encoding: .utf8) else {
            preconditionFailure("\(url.path): cannot read the fixture keys' passphrase (run tools/make-fixtures keys)")
        }
        let text = raw.trimmingCharacters(in: .newlines)
        precondition(!text.isEmpty, "\(url.path): the fixture keys' passphrase is empty")
        return text
    }()

    private static let loaded = Result { () throws(FixtureFacts.Unusable) in
        try FixtureFacts.load([KeyFact].self, in: directory)
    }
}
