import ASN1Kit
import CryptoOpenSSL

/// A public key pin: the SHA-256 digest of a SubjectPublicKeyInfo DER, HPKP's `pin-sha256`
/// (RFC 7469 §2.4) and curl's `--pinnedpubkey sha256//…`.
///
/// Made once, from the SubjectPublicKeyInfo bytes (``init(subjectPublicKeyInfo:)``,
/// ``PublicKey/spkiPin``) or from curl's text (``init(_:)``, ``pins(parsing:)``), and compared as
/// bytes. Its `description` is curl's spelling, `sha256//` and the padded base64 of the digest;
/// ``base64`` is the `spkiSHA256` that `keytool inspect` prints.
public struct SPKIPin: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes of the SHA-256 digest.
    public let digest: [UInt8]

    /// The pin of a SubjectPublicKeyInfo DER: SHA-256 over exactly these bytes.
    public init(subjectPublicKeyInfo der: some Collection<UInt8>) {
        digest = Digest.hash(.sha256, Array(der))
    }

    /// A pin from its digest, or `nil` when `digest` is not 32 bytes long.
    public init?(digest: [UInt8]) {
        guard digest.count == 32 else { return nil }
        self.digest = digest
    }

    /// One pin as curl spells it: `sha256//` and the base64 of a 32-byte SHA-256 (surrounding
    /// white space ignored).
    ///
    /// - Throws: ``KeyError`` `.malformed` naming the text (its first 100 characters).
    public init(_ text: some StringProtocol) throws {
        let item = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard item.hasPrefix(Self.prefix), let decoded = try? Base64.decode(Array(item.dropFirst(Self.prefix.count).utf8)),
              let pin = SPKIPin(digest: decoded) else {
            throw KeyError(.malformed, "'\(item.prefix(100))' is not a public key pin (sha256// and the base64 of a 32-byte SHA-256, pins separated by ';')")
        }
        self = pin
    }

    /// The pins of curl's `--pinnedpubkey` spelling: ``init(_:)`` items separated by `;`. An empty
    /// item (as after a trailing `;`) is not a pin.
    ///
    /// - Throws: ``KeyError`` `.malformed` naming the first item that is not a pin.
    public static func pins(parsing text: String) throws -> [SPKIPin] {
        try text.split(separator: ";", omittingEmptySubsequences: false).map { try SPKIPin($0) }
    }

    /// The padded base64 of ``digest`` (HPKP's `pin-sha256` value, `keytool inspect`'s `spkiSHA256`).
    public var base64: String { Base64.encode(digest) }

    /// `sha256//` and ``base64``, as curl's `--pinnedpubkey` takes it.
    public var description: String { Self.prefix + base64 }

    private static let prefix = "sha256//"
}
