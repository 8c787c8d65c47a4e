/// Base64 (RFC 4648 §4) for OpenSSH and RFC 4716 text: a tight decoder over the raw bytes, with
/// the same rules as ASN1Kit's `Base64` — whitespace (space, tab, CR, LF) is skipped, `=` padding is
/// optional and only at the very end, padding bits must be zero — and errors that name the offset.
///
/// It exists because key text is decoded on hot paths (authorized_keys files, the OpenSSH private
/// key benchmark) where a generic decoder across the module boundary costs tens of nanoseconds
/// per character.
enum SSHBase64 {
    private static let invalid: UInt8 = 0xFF
    private static let whitespace: UInt8 = 0xFE
    private static let pad: UInt8 = 0xFD

    private static let table: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (index, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(character)] = UInt8(index)
        }
        for character in [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n")] {
            table[Int(character)] = whitespace
        }
        table[Int(UInt8(ascii: "="))] = pad
        return table
    }()

    /// Decodes `text`; `baseOffset` is the offset of `text.startIndex` in the caller's input, for
    /// errors, which read "`what` has bad base64: … at offset N".
    static func decode(_ text: ArraySlice<UInt8>, baseOffset: Int, what: String) throws -> [UInt8] {
        let capacity = text.count / 4 * 3 + 3
        var failure: (message: String, offset: Int)?
        let output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, written in
            written = 0
            table.withUnsafeBufferPointer { table in
                text.withUnsafeBufferPointer { input in
                    var accumulator: UInt32 = 0
                    var count = 0
                    var padding = 0
                    var out = 0
                    for position in 0..<input.count {
                        let value = table[Int(input[position])]
                        if value < 64 {
                            guard padding == 0 else {
                                failure = ("data continues after '=' padding", baseOffset + position)
                                return
                            }
                            accumulator = accumulator << 6 | UInt32(value)
                            count += 1
                            if count == 4 {
                                buffer[out] = UInt8(truncatingIfNeeded: accumulator >> 16)
                                buffer[out + 1] = UInt8(truncatingIfNeeded: accumulator >> 8)
                                buffer[out + 2] = UInt8(truncatingIfNeeded: accumulator)
                                out += 3
                                accumulator = 0
                                count = 0
                            }
                        } else if value == whitespace {
                            continue
                        } else if value == pad {
                            padding += 1
                            guard padding <= 2, count >= 2 else {
                                failure = ("misplaced '=' padding", baseOffset + position)
                                return
                            }
                        } else {
                            failure = ("invalid character", baseOffset + position)
                            return
                        }
                    }
                    let end = baseOffset + input.count
                    switch count {
                    case 0:
                        break
                    case 1:
                        failure = ("a dangling character", end)
                    case 2:
                        guard padding == 0 || padding == 2, accumulator & 0x0F == 0 else {
                            failure = ("wrong padding", end)
                            return
                        }
                        buffer[out] = UInt8(truncatingIfNeeded: accumulator >> 4)
                        out += 1
                    default:
                        guard padding == 0 || padding == 1, accumulator & 0x03 == 0 else {
                            failure = ("wrong padding", end)
                            return
                        }
                        buffer[out] = UInt8(truncatingIfNeeded: accumulator >> 10)
                        buffer[out + 1] = UInt8(truncatingIfNeeded: accumulator >> 2)
                        out += 2
                    }
                    written = out
                }
            }
        }
        if let failure {
            throw RSAKeyError(.malformed, "\(what) has bad base64: \(failure.message) at offset \(failure.offset)", offset: failure.offset)
        }
        return output
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
