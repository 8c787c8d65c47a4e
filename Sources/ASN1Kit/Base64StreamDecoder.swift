import CofferErrors

/// Decodes base64 (RFC 4648 §4 and §5) incrementally, chunk by chunk, keeping at most one partial
/// group of four characters between calls: for bodies that arrive in pieces (downloads, PEM streams).
/// ``Base64`` decodes a whole text at once.
public struct Base64StreamDecoder: Sendable {
    /// Which characters are accepted.
    public enum Mode: Sendable {
        /// Wrappers from the wild: the standard and the URL-safe alphabets (mixed), padding optional,
        /// padding that ends a block and lets a new one start (per-block base64), and every byte
        /// outside the alphabets (whitespace, quotes, commas, ...) skipped.
        case lenient
        /// PEM bodies: the standard alphabet, whitespace between characters, padding only at the end.
        case pem
    }

    private static let whitespace: UInt8 = 0xFE
    private static let pad: UInt8 = 0xFD
    private static let other: UInt8 = 0xFF

    private static func table(urlSafe: Bool) -> [UInt8] {
        var table = [UInt8](repeating: other, count: 256)
        for (value, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        if urlSafe {
            table[Int(UInt8(ascii: "-"))] = 62
            table[Int(UInt8(ascii: "_"))] = 63
        }
        for character in " \t\r\n\u{0B}\u{0C}".utf8 { table[Int(character)] = whitespace }
        table[Int(UInt8(ascii: "="))] = pad
        return table
    }

    private static let lenientTable = table(urlSafe: true)
    private static let pemTable = table(urlSafe: false)

    /// What the decoder accepts.
    public let mode: Mode
    private var accumulator: UInt32 = 0
    private var count = 0
    private var paddingSeen = false
    /// Characters consumed so far, for error offsets.
    public private(set) var offset = 0
    /// Bytes produced so far.
    public private(set) var produced = 0

    public init(mode: Mode) {
        self.mode = mode
    }

    /// Decodes `chunk`, appending whole bytes to `output`.
    ///
    /// - Throws: ``ASN1Error`` `.invalidBase64` for a character a PEM body may not hold, a misplaced
    ///   `=`, or a group of one character (bits that make no byte), with the offset counted from
    ///   the first chunk.
    public mutating func decode(_ chunk: ArraySlice<UInt8>, into output: inout [UInt8]) throws(ASN1Error) {
        output.reserveCapacity(output.count + chunk.count / 4 * 3 + 3)
        let table = mode == .lenient ? Self.lenientTable : Self.pemTable
        for byte in chunk {
            let value = table[Int(byte)]
            defer { offset += 1 }
            if value < 64 {
                if paddingSeen {
                    guard mode == .lenient else {
                        throw ASN1Error(.invalidBase64, "base64: data after the '=' padding at offset \(offset)", offset: offset)
                    }
                    paddingSeen = false
                }
                accumulator = accumulator << 6 | UInt32(value)
                count += 1
                if count == 4 {
                    output.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                    output.append(UInt8(truncatingIfNeeded: accumulator >> 8))
                    output.append(UInt8(truncatingIfNeeded: accumulator))
                    produced += 3
                    accumulator = 0
                    count = 0
                }
            } else if value == Self.pad {
                if count == 0 {
                    // A second (or stray) '=' after a finished group.
                    guard paddingSeen || mode == .lenient else {
                        throw ASN1Error(.invalidBase64, "base64: misplaced '=' at offset \(offset)", offset: offset)
                    }
                    continue
                }
                try flushGroup(at: offset, into: &output)
                paddingSeen = true
            } else if value == Self.whitespace || mode == .lenient {
                continue
            } else {
                throw ASN1Error(.invalidBase64, "base64: invalid character at offset \(offset)", offset: offset)
            }
        }
    }

    /// Ends the input: a trailing group of two or three characters without padding is accepted.
    ///
    /// - Throws: ``ASN1Error`` `.invalidBase64` for a group of one character.
    public mutating func finish(into output: inout [UInt8]) throws(ASN1Error) {
        if count > 0 { try flushGroup(at: offset, into: &output) }
    }

    /// Writes the one or two bytes of a short group (two or three characters) ended by padding or
    /// by the end of the input.
    private mutating func flushGroup(at offset: Int, into output: inout [UInt8]) throws(ASN1Error) {
        switch count {
        case 2:
            output.append(UInt8(truncatingIfNeeded: accumulator >> 4))
            produced += 1
        case 3:
            output.append(UInt8(truncatingIfNeeded: accumulator >> 10))
            output.append(UInt8(truncatingIfNeeded: accumulator >> 2))
            produced += 2
        default:
            throw ASN1Error(.invalidBase64, "base64: a lone character ends a group at offset \(offset); its bits make no byte", offset: offset)
        }
        count = 0
        accumulator = 0
    }
}
