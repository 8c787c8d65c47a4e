import ASN1Kit
import CofferErrors

/// The SSH public key file format of RFC 4716 (`ssh-keygen -e -m RFC4716`).
///
/// ```
/// ---- BEGIN SSH2 PUBLIC KEY ----
/// Comment: "a comment, which may be long and continue on \
/// the next line"
/// x-private-header: value
/// AAAAB3NzaC1yc2EAAAADAQABAAABAQC…      base64 of the key blob (RFC 4253 §6.6)
/// ---- END SSH2 PUBLIC KEY ----
/// ```
/// Header tags are 1–64 printable ASCII characters other than `:`; a header is `tag: value`, and a
/// line ending in `\` continues on the next. Values hold at most 1024 bytes. No line may be longer
/// than 72 bytes (§3.1). Unrecognised headers are ignored (§3.3).
public enum RFC4716PublicKey {
    /// The first line.
    public static let beginMarker = "---- BEGIN SSH2 PUBLIC KEY ----"
    /// The last line.
    public static let endMarker = "---- END SSH2 PUBLIC KEY ----"
    /// The longest line allowed, without its line end (§3.1).
    static let maximumLineLength = 72
    /// The longest header tag (§3.3).
    static let maximumTagLength = 64
    /// The longest header value (§3.3).
    static let maximumValueLength = 1024
    /// The base64 line width ssh-keygen writes.
    static let bodyWidth = 70

    /// Decodes an RFC 4716 public key. Text before the BEGIN line is skipped; after the END line
    /// only blank lines may follow. CRLF line ends are accepted, and so are lines over 72 bytes.
    /// Every key type SSH holds and Coffer handles is read (RSA, EC, Ed25519, Ed448).
    ///
    /// - Returns: the key and the `Comment` header without its surrounding quotes (`nil` when absent).
    /// - Throws: ``KeyError`` `.unsupportedAlgorithm` naming another key type; `.malformed`
    ///   naming the offset for a missing END line, a bad header, bad base64 or a bad key blob;
    ///   `.unrecognizedFormat` when there is no BEGIN line.
    public static func decode(_ bytes: [UInt8]) throws -> (key: PublicKey, comment: String?) {
        let lines = Self.lines(bytes)
        guard let beginIndex = lines.firstIndex(where: { isMarker($0.text, beginMarker) }) else {
            throw KeyError(.unrecognizedFormat, "no '\(beginMarker)' line found")
        }
        let beginOffset = lines[beginIndex].offset
        guard let endIndex = lines[(beginIndex + 1)...].firstIndex(where: { isMarker($0.text, endMarker) }) else {
            throw KeyError(.malformed, "RFC 4716 key at offset \(beginOffset) has no '\(endMarker)' line", offset: beginOffset)
        }
        if let extra = lines[(endIndex + 1)...].first(where: { !$0.text.allSatisfy(isSpace) }) {
            throw KeyError(.malformed, "RFC 4716 key has text after its END line at offset \(extra.offset)", offset: extra.offset)
        }

        var comment: String?
        var index = beginIndex + 1
        while index < endIndex, lines[index].text.contains(UInt8(ascii: ":")) {
            let headerOffset = lines[index].offset
            var header = lines[index].text
            var joined: [UInt8] = []
            while header.last == UInt8(ascii: "\\") {
                joined += header.dropLast()
                index += 1
                guard index < endIndex else {
                    throw KeyError(.malformed, "RFC 4716 header at offset \(headerOffset) continues past the last header line", offset: headerOffset)
                }
                header = lines[index].text
            }
            joined += header
            index += 1
            let (tag, value) = try parseHeader(joined, offset: headerOffset)
            if tag.lowercased() == "comment" { comment = unquoted(value) }
        }

        let bodyStart = index < endIndex ? lines[index].offset : lines[endIndex].offset
        let bodyEnd = lines[endIndex].offset
        let blob = try SSHBase64.decode(bytes[bodyStart..<bodyEnd], baseOffset: bodyStart, what: "RFC 4716 key at offset \(beginOffset)")
        guard !blob.isEmpty else {
            throw KeyError(.malformed, "RFC 4716 key at offset \(beginOffset) has no key data", offset: bodyStart)
        }
        let key = try OpenSSHPublicKey.decodeBlob(blob[...], context: "RFC 4716 key blob (base64 at offset \(bodyStart))")
        return (key, comment)
    }

    /// Writes `key` as `ssh-keygen -e -m RFC4716` does: the BEGIN line, `Comment: "…"` when there
    /// is a comment, the blob in base64 at 70 columns, the END line, each ending in a newline.
    ///
    /// A comment line that would exceed 72 bytes is continued on further lines with `\`, as
    /// §3.3 requires (ssh-keygen does not wrap; for short comments the output is identical). Line
    /// breaks in the comment become spaces, and it is cut at 1024 bytes of header value.
    ///
    /// - Throws: ``KeyError`` `.cannotConvert` for X25519 and X448 keys.
    public static func encode(_ key: PublicKey, comment: String?) throws -> String {
        text(try OpenSSHPublicKey.wireBlob(key), comment: comment)
    }

    private static func text(_ blob: [UInt8], comment: String?) -> String {
        var text = beginMarker + "\n"
        if let comment, !comment.isEmpty {
            text += commentLines(comment)
        }
        text += Base64.encode(blob, lineWidth: bodyWidth)
        return text + endMarker + "\n"
    }

    // MARK: Headers

    /// `Comment: "…"`, split into lines of at most 72 bytes ending in `\` where needed.
    static func commentLines(_ comment: String) -> String {
        var value = ""
        var valueBytes = 2
        for character in comment {
            let flattened: Character = character == "\n" || character == "\r" || character == "\r\n" ? " " : character
            let size = String(flattened).utf8.count
            if valueBytes + size > maximumValueLength { break }
            value.append(flattened)
            valueBytes += size
        }
        let header = "Comment: \"" + value + "\""
        var lines: [String] = []
        var current = ""
        var currentBytes = 0
        for character in header {
            let size = String(character).utf8.count
            // Leave room for the continuation backslash.
            if currentBytes + size > maximumLineLength - 1 {
                lines.append(current + "\\")
                current = ""
                currentBytes = 0
            }
            current.append(character)
            currentBytes += size
        }
        if lines.isEmpty, header.utf8.count <= maximumLineLength { return header + "\n" }
        lines.append(current)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Splits `tag: value`, checking the tag's characters and both lengths.
    private static func parseHeader(_ header: [UInt8], offset: Int) throws -> (tag: String, value: String) {
        guard let colon = header.firstIndex(of: UInt8(ascii: ":")) else {
            throw KeyError(.malformed, "RFC 4716 header at offset \(offset) has no ':'", offset: offset)
        }
        let tag = header[..<colon]
        guard (1...maximumTagLength).contains(tag.count), tag.allSatisfy({ (33...126).contains($0) }) else {
            throw KeyError(.malformed, "RFC 4716 header tag at offset \(offset) must be 1 to \(maximumTagLength) printable characters without spaces",
                              offset: offset)
        }
        var value = header[(colon + 1)...]
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        guard value.count <= maximumValueLength else {
            throw KeyError(.malformed, "RFC 4716 header value at offset \(offset) has \(value.count) bytes, more than \(maximumValueLength)",
                              offset: offset)
        }
        return (String(decoding: tag, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// The value without one pair of surrounding double quotes.
    private static func unquoted(_ value: String) -> String {
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            return String(value.dropFirst().dropLast())
        }
        return value
    }

    // MARK: Lines

    private struct Line {
        var text: ArraySlice<UInt8>
        var offset: Int
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// Lines without their CR/LF, with their offsets.
    private static func lines(_ bytes: [UInt8]) -> [Line] {
        var result: [Line] = []
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            var text = bytes[start..<end]
            if text.last == 0x0D { text = text.dropLast() }
            result.append(Line(text: text, offset: start))
            start = end + 1
        }
        return result
    }

    /// Whether `line` is `marker`, ignoring surrounding spaces.
    private static func isMarker(_ line: ArraySlice<UInt8>, _ marker: String) -> Bool {
        var trimmed = line.drop(while: isSpace)
        while let last = trimmed.last, isSpace(last) { trimmed = trimmed.dropLast() }
        return trimmed.elementsEqual(marker.utf8)
    }
}
