/// Hex text for test vectors, independent of the library's own hex code under test.
public enum TestHex {
    /// The bytes of hex text written as vectors are (`"30 03 02 01 01"`): whitespace is ignored,
    /// either case is read. Anything else stops the test run, as a broken vector should.
    public static func bytes(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { !$0.isWhitespace }.utf8)
        precondition(digits.count % 2 == 0, "odd hex length in a test vector")
        var output: [UInt8] = []
        output.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            output.append(nibble(digits[index]) << 4 | nibble(digits[index + 1]))
            index += 2
        }
        return output
    }

    /// Lowercase hex of `bytes`, two digits a byte.
    public static func string<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var output: [UInt8] = []
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func nibble(_ digit: UInt8) -> UInt8 {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: preconditionFailure("bad hex digit in a test vector")
        }
    }
}
