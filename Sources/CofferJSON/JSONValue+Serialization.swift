extension JSONValue {
    /// Compact JSON text: no whitespace, members in their order, strings escaped as RFC 8259
    /// requires plus DEL (so that RFC 7638 thumbprints hash the canonical form, and text printed to
    /// a terminal carries no control character).
    public var serialized: String {
        String(decoding: serializedBytes, as: UTF8.self)
    }

    /// ``serialized`` as UTF-8 bytes, written straight into one growing buffer.
    public var serializedBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out)
        return out
    }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.quote(member.name, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .string(let text): Self.quote(text, into: &out)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        }
    }

    /// `text` as a JSON string literal.
    public static func quote(_ text: String) -> String {
        var out: [UInt8] = []
        quote(text, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal to `out`.
    public static func quote(_ text: String, into out: inout String) {
        out += quote(text)
    }

    /// Appends `text` as a JSON string literal to `out`, as UTF-8. Only ASCII needs escaping, so
    /// the bytes of every other scalar are copied as they are.
    public static func quote(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0x00..<0x20, 0x7F:
                func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10 }
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0x0F))
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
