extension JSONValue {
    /// Compact JSON text: no whitespace, members in their order, strings escaped as RFC 8259
    /// requires plus DEL (so that RFC 7638 thumbprints hash the canonical form, and text printed to
    /// a terminal carries no control character).
    public var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .object(let members):
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += "," }
                Self.quote(member.name, into: &out)
                out += ":"
                member.value.write(to: &out)
            }
            out += "}"
        case .array(let elements):
            out += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { out += "," }
                element.write(to: &out)
            }
            out += "]"
        case .string(let text): Self.quote(text, into: &out)
        case .number(let text): out += text
        case .bool(let value): out += value ? "true" : "false"
        case .null: out += "null"
        }
    }

    /// `text` as a JSON string literal.
    public static func quote(_ text: String) -> String {
        var out = ""
        quote(text, into: &out)
        return out
    }

    /// Appends `text` as a JSON string literal to `out`.
    public static func quote(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case let s where s.value < 0x20 || s.value == 0x7F:
                let hex = String(s.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
