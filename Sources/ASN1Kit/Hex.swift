/// Hexadecimal text of bytes: lowercase by default, decoding either case.
public enum Hex {
    private static let lowercaseDigits = Array("0123456789abcdef".utf8)
    private static let uppercaseDigits = Array("0123456789ABCDEF".utf8)

    /// Two hex digits per byte, leading zeros kept.
    public static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes, uppercase: Bool = false) -> String {
        let digits = uppercase ? uppercaseDigits : lowercaseDigits
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Lowercase hex of a big-endian magnitude without leading zero digits (`"0"` for zero), as
    /// `inspect --json` prints integers.
    public static func encodeMagnitude<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let text = encode(bytes).utf8.drop(while: { $0 == UInt8(ascii: "0") })
        return text.isEmpty ? "0" : String(decoding: text, as: UTF8.self)
    }

    /// The bytes of an even-length hex string (either case), or `nil` when it is not one.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = nibble(characters[index]), let low = nibble(characters[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// The value of one hex digit (either case), or `nil`.
    public static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
