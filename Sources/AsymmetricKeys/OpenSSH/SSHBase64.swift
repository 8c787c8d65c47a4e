import ASN1Kit

/// Base64 (RFC 4648 §4) for OpenSSH and RFC 4716 text. Decoding is ASN1Kit's `Base64` (whitespace
/// skipped, `=` padding optional and only at the end, padding bits zero) with errors turned into
/// ``KeyError`` that name the offset; encoding adds what SSH text needs: a line width and
/// unpadded output (fingerprints).
enum SSHBase64 {
    /// Decodes `text`; `baseOffset` is the offset of `text.startIndex` in the caller's input, for
    /// errors, which read "`what` has bad base64: … at offset N".
    static func decode(_ text: ArraySlice<UInt8>, baseOffset: Int, what: String) throws -> [UInt8] {
        do {
            return try Base64.decode(text, baseOffset: baseOffset)
        } catch let error as ASN1Error {
            throw KeyError(.malformed, "\(what) has bad base64: \(error.reason)", offset: error.offset, cause: error)
        }
    }

    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Encodes `bytes` with `=` padding (or without, when `padding` is false), breaking lines after
    /// `lineWidth` characters with `\n` and ending the last line with `\n` too; without `lineWidth`
    /// the text is one line with no newline.
    static func encode(_ bytes: [UInt8], lineWidth: Int? = nil, padding: Bool = true) -> String {
        let encodedCount = (bytes.count + 2) / 3 * 4
        let lineBreaks = lineWidth.map { (encodedCount + $0 - 1) / $0 } ?? 0
        let capacity = encodedCount + lineBreaks
        return String(unsafeUninitializedCapacity: max(capacity, 1)) { buffer in
            alphabet.withUnsafeBufferPointer { alphabet in
                bytes.withUnsafeBufferPointer { input in
                    var out = 0
                    var column = 0
                    func put(_ character: UInt8) {
                        buffer[out] = character
                        out += 1
                        column += 1
                        if let lineWidth, column == lineWidth {
                            buffer[out] = UInt8(ascii: "\n")
                            out += 1
                            column = 0
                        }
                    }
                    var index = 0
                    while index + 3 <= input.count {
                        let word = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                        put(alphabet[Int(word >> 18)])
                        put(alphabet[Int((word >> 12) & 0x3F)])
                        put(alphabet[Int((word >> 6) & 0x3F)])
                        put(alphabet[Int(word & 0x3F)])
                        index += 3
                    }
                    let rest = input.count - index
                    if rest > 0 {
                        let word = UInt32(input[index]) << 16 | (rest == 2 ? UInt32(input[index + 1]) << 8 : 0)
                        put(alphabet[Int(word >> 18)])
                        put(alphabet[Int((word >> 12) & 0x3F)])
                        if rest == 2 { put(alphabet[Int((word >> 6) & 0x3F)]) }
                        if padding {
                            if rest == 1 { put(UInt8(ascii: "=")) }
                            put(UInt8(ascii: "="))
                        }
                    }
                    if lineWidth != nil, column != 0 {
                        buffer[out] = UInt8(ascii: "\n")
                        out += 1
                    }
                    return out
                }
            }
        }
    }
}
