/// The text rules of HTTP fields (RFC 9110 §5): names compare case-insensitively in ASCII, and the
/// optional whitespace around a value or a list member is spaces and horizontal tabs (OWS, §5.6.3).
///
/// Package API: the pipeline's readers and keytool-fetch's `--header` parsing use it; the fuzz
/// target, in another package, reaches it through ``HTTPTextOracles``.
package enum HTTPFieldText {
    /// Whether `a` and `b` name the same field.
    package static func namesEqual(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { lowercased($0) == lowercased($1) }
    }

    /// `text` without the optional whitespace around it.
    package static func trimmed(_ text: some StringProtocol) -> String {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isWhitespace($0) }),
              let last = text.lastIndex(where: { !isWhitespace($0) }) else { return "" }
        return String(text[first...last])
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
