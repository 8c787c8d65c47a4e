import ASN1Kit
import AsymmetricKeys
import KeytoolSupport

/// Reads a SHA-256 given as hex (`--sha256`, `sha256=`).
enum FetchDigestOption {
    /// The 32 bytes of `text`, which must be 64 hex digits.
    static func parse(_ text: String, what: String, failure: (String) -> any Error) throws -> [UInt8] {
        guard text.utf8.count == 64, let bytes = Hex.decode(text) else {
            throw failure("\(what) needs 64 hex digits (a SHA-256), got '\(text.prefix(80))'")
        }
        return bytes
    }
}
