import CofferErrors

/// Base64 (RFC 4648 §4) for PEM and OpenSSH bodies.
public enum Base64 {
    /// How decoding treats characters outside the alphabet.
    public enum Strictness: Sendable {
        /// Only whitespace (space, tab, CR, LF) may appear between alphabet characters.
        case whitespaceOnly
    }

    @usableFromInline
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Four 256-entry tables, one per position in a group of four characters, holding each
    /// character's six bits already shifted into place (18, 12, 6, 0); anything outside the
    /// alphabet has bit 24 set. A group decodes as the OR of four lookups, and one comparison tells
    /// whether all four characters were in the alphabet.
    @usableFromInline
    static let shiftedTables: [UInt32] = {
        var tables = [UInt32](repeating: 1 << 24, count: 1024)
        for (value, character) in alphabet.enumerated() {
            for position in 0..<4 {
                tables[position * 256 + Int(character)] = UInt32(value) << (18 - 6 * position)
            }
        }
        return tables
    }()

    @usableFromInline
    static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        for c in [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n")] { table[Int(c)] = 0xFE }
        table[Int(UInt8(ascii: "="))] = 0xFD
        return table
    }()

    /// Encodes bytes as base64 text: by default with `=` padding on one line; with `lineWidth`,
    /// broken into lines of that many characters, each ending in `\n` (PEM, OpenSSH and RFC 4716
    /// bodies); without `padding`, the trailing `=` left out (SSH fingerprints).
    public static func encode<C: Collection<UInt8>>(_ bytes: C, lineWidth: Int? = nil, padding: Bool = true) -> String {
        let text = bytes.withContiguousStorageIfAvailable({ encode(buffer: $0, alphabet: alphabet, padding: padding) })
            ?? Array(bytes).withUnsafeBufferPointer { encode(buffer: $0, alphabet: alphabet, padding: padding) }
        guard let lineWidth, lineWidth > 0 else { return text }
        let body = Array(text.utf8)
        var lines: [UInt8] = []
        lines.reserveCapacity(body.count + body.count / lineWidth + 1)
        var start = 0
        while start < body.count {
            let end = min(start + lineWidth, body.count)
            lines += body[start..<end]
            lines.append(UInt8(ascii: "\n"))
            start = end
        }
        return String(decoding: lines, as: UTF8.self)
    }

    /// The one encoder: `input` as text in `alphabet` (standard or URL), with or without `=` padding,
    /// written straight into the string's storage.
    static func encode(buffer input: UnsafeBufferPointer<UInt8>, alphabet: [UInt8], padding: Bool) -> String {
        let rest = input.count % 3
        let count = padding || rest == 0 ? (input.count + 2) / 3 * 4 : input.count / 3 * 4 + rest + 1
        return String(unsafeUninitializedCapacity: count) { output in
            alphabet.withUnsafeBufferPointer { table in
                var i = 0
                var o = 0
                while i + 3 <= input.count {
                    let (a, b, c) = (input[i], input[i + 1], input[i + 2])
                    output[o] = table[Int(a >> 2)]
                    output[o + 1] = table[Int((a & 0x03) << 4 | b >> 4)]
                    output[o + 2] = table[Int((b & 0x0F) << 2 | c >> 6)]
                    output[o + 3] = table[Int(c & 0x3F)]
                    i += 3
                    o += 4
                }
                let rest = input.count - i
                if rest > 0 {
                    let a = input[i]
                    let b: UInt8 = rest == 2 ? input[i + 1] : 0
                    output[o] = table[Int(a >> 2)]
                    output[o + 1] = table[Int((a & 0x03) << 4 | b >> 4)]
                    if rest == 2 {
                        output[o + 2] = table[Int((b & 0x0F) << 2)]
                    } else if padding {
                        output[o + 2] = UInt8(ascii: "=")
                    }
                    if padding { output[o + 3] = UInt8(ascii: "=") }
                }
            }
            return count
        }
    }

    /// Decodes base64 text, ignoring whitespace. Padding is optional at the very end; anything after
    /// padding, a character outside the alphabet, or a dangling single character is an error whose
    /// offset is `baseOffset` plus the position of the bad character.
    public static func decode<C: Collection<UInt8>>(_ text: C, baseOffset: Int = 0) throws -> [UInt8] {
        if let result = try text.withContiguousStorageIfAvailable({ try decode(buffer: $0, baseOffset: baseOffset) }) {
            return result
        }
        return try Array(text).withUnsafeBufferPointer { try decode(buffer: $0, baseOffset: baseOffset) }
    }

    static func decode(buffer text: UnsafeBufferPointer<UInt8>, baseOffset: Int) throws -> [UInt8] {
        // Fast path: whole groups of four alphabet characters are decoded straight into the output;
        // anything else (whitespace, padding, errors) goes through `decodeSlow`, which also finds
        // the exact offset of a bad character.
        // One spare byte: the fast loop stores each group's three bytes as one four-byte word.
        let capacity = text.count / 4 * 3 + 4
        var failure: ASN1Error?
        let result = decodeTable.withUnsafeBufferPointer { table in
            shiftedTables.withUnsafeBufferPointer { shifted in
                [UInt8](unsafeUninitializedCapacity: capacity) { output, written in
                    var accumulator: UInt32 = 0
                    var count = 0
                    var padding = 0
                    var o = 0
                    var position = 0
                    let end = text.count
                    let input = text.baseAddress
                    let out = UnsafeMutableRawPointer(output.baseAddress)
                    while position < end {
                        // Whole groups of four alphabet characters: the common case, decoded in a
                        // tight loop until something else (a line end, padding, an error) turns up.
                        if count == 0 && padding == 0, let input, let out {
                            // Two groups per round while eight characters remain.
                            while end - position >= 8 {
                                let first = shifted[Int(input[position])] | shifted[256 + Int(input[position &+ 1])]
                                    | shifted[512 + Int(input[position &+ 2])] | shifted[768 + Int(input[position &+ 3])]
                                let second = shifted[Int(input[position &+ 4])] | shifted[256 + Int(input[position &+ 5])]
                                    | shifted[512 + Int(input[position &+ 6])] | shifted[768 + Int(input[position &+ 7])]
                                guard first | second < 1 << 24 else { break }
                                out.storeBytes(of: (first << 8).bigEndian, toByteOffset: o, as: UInt32.self)
                                out.storeBytes(of: (second << 8).bigEndian, toByteOffset: o &+ 3, as: UInt32.self)
                                o &+= 6
                                position &+= 8
                            }
                            while end - position >= 4 {
                                let group = shifted[Int(input[position])] | shifted[256 + Int(input[position + 1])]
                                    | shifted[512 + Int(input[position + 2])] | shifted[768 + Int(input[position + 3])]
                                guard group < 1 << 24 else { break }
                                // The three bytes, big-endian, plus one byte the next group overwrites.
                                out.storeBytes(of: (group << 8).bigEndian, toByteOffset: o, as: UInt32.self)
                                o &+= 3
                                position &+= 4
                            }
                            if position == end { break }
                            // A line break between groups: skip it here rather than in the
                            // character-at-a-time path below.
                            let next = input[position]
                            if next == 0x0A || next == 0x0D {
                                position &+= 1
                                continue
                            }
                        }
                        defer { position += 1 }
                        let value = table[Int(text[position])]
                        if value < 64 && padding == 0 {
                            accumulator = accumulator << 6 | UInt32(value)
                            count += 1
                            if count == 4 {
                                output[o] = UInt8(truncatingIfNeeded: accumulator >> 16)
                                output[o + 1] = UInt8(truncatingIfNeeded: accumulator >> 8)
                                output[o + 2] = UInt8(truncatingIfNeeded: accumulator)
                                o += 3
                                accumulator = 0
                                count = 0
                            }
                            continue
                        }
                        let offset = baseOffset + position
                        switch value {
                        case 0xFE:
                            continue
                        case 0xFD:
                            padding += 1
                            if padding > 2 || count % 4 < 2 {
                                failure = ASN1Error(.invalidBase64, "misplaced '=' padding at offset \(offset)", offset: offset)
                                written = o
                                return
                            }
                        case let v where v < 64:
                            failure = ASN1Error(.invalidBase64, "base64 data continues after '=' padding at offset \(offset)", offset: offset)
                            written = o
                            return
                        default:
                            failure = ASN1Error(.invalidBase64, "invalid base64 character at offset \(offset)", offset: offset)
                            written = o
                            return
                        }
                    }
                    let endOffset = baseOffset + text.count
                    switch count {
                    case 0:
                        if padding != 0 { failure = ASN1Error(.invalidBase64, "misplaced '=' padding before offset \(endOffset)", offset: endOffset) }
                    case 1:
                        failure = ASN1Error(.invalidBase64, "base64 data ends with a dangling character before offset \(endOffset)", offset: endOffset)
                    case 2:
                        if padding != 0 && padding != 2 {
                            failure = ASN1Error(.invalidBase64, "wrong '=' padding before offset \(endOffset)", offset: endOffset)
                        } else if accumulator & 0x0F != 0 {
                            failure = ASN1Error(.invalidBase64, "base64 data has non-zero padding bits before offset \(endOffset)", offset: endOffset)
                        } else {
                            output[o] = UInt8(truncatingIfNeeded: accumulator >> 4)
                            o += 1
                        }
                    default:
                        if padding != 0 && padding != 1 {
                            failure = ASN1Error(.invalidBase64, "wrong '=' padding before offset \(endOffset)", offset: endOffset)
                        } else if accumulator & 0x03 != 0 {
                            failure = ASN1Error(.invalidBase64, "base64 data has non-zero padding bits before offset \(endOffset)", offset: endOffset)
                        } else {
                            output[o] = UInt8(truncatingIfNeeded: accumulator >> 10)
                            output[o + 1] = UInt8(truncatingIfNeeded: accumulator >> 2)
                            o += 2
                        }
                    }
                    written = o
                }
            }
        }
        if let failure { throw failure }
        return result
    }
}
