import CofferErrors

/// A strict JSON parser (RFC 8259) over bytes.
///
/// Nesting is bounded (``Options/maximumDepth``), the text must be valid UTF-8, numbers must have
/// RFC 8259's shape, and by default an object with the same member name twice is an error (RFC 7517
/// §4 requires a JWK's names to be unique). Errors are ``JSONParseError`` with the byte offset.
public struct JSONParser {
    /// What the parser accepts beyond RFC 8259's grammar.
    public struct Options: Sendable {
        /// The deepest nesting of objects and arrays accepted.
        public var maximumDepth: Int
        /// Whether an object may name a member twice (both are kept, in order).
        public var allowsDuplicateMembers: Bool

        public init(maximumDepth: Int = 32, allowsDuplicateMembers: Bool = false) {
            self.maximumDepth = maximumDepth
            self.allowsDuplicateMembers = allowsDuplicateMembers
        }
    }

    private let bytes: [UInt8]
    private let options: Options
    private var index: Int

    /// Parses one JSON value; only whitespace may follow it.
    public static func parse(_ bytes: [UInt8], options: Options = Options()) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, options: options)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.error(.trailingData, "unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8], options: Options) {
        self.bytes = bytes
        self.options = options
        self.index = 0
    }

    private func error(_ code: JSONParseError.Code, _ reason: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(code, reason, offset: offset ?? index)
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error(.truncated, "the text ends where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error(.malformed, "unexpected character '\(Self.printable(bytes[index]))' where a value was expected")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        let matches = bytes.count - index >= count && word.withUTF8Buffer { expected in
            bytes[index..<index + count].elementsEqual(expected)
        }
        guard matches else { throw error(.malformed, "expected '\(word)'") }
        index += count
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= options.maximumDepth else { throw error(.depthExceeded, "nesting deeper than \(options.maximumDepth) levels") }
        index += 1
        var members: [JSONValue.Member] = []
        // Duplicate names: a linear search while the object is small (no allocation), a set of
        // the names once it is not.
        var names: Set<String>?
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error(.malformed, "expected a member name (a string)") }
            let nameOffset = index
            let name = try string()
            guard options.allowsDuplicateMembers || Self.isNew(name, in: members, names: &names) else {
                throw error(.duplicateMember, "member \"\(Self.clipped(name))\" appears twice in one object", at: nameOffset)
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error(.malformed, "expected ':' after a member name") }
            index += 1
            skipSpace()
            if members.isEmpty { members.reserveCapacity(8) }
            members.append(JSONValue.Member(name, try value(depth: depth), offset: nameOffset))
            skipSpace()
            guard index < bytes.count else { throw error(.truncated, "the text ends inside an object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error(.malformed, "expected ',' or '}' in an object")
        }
    }

    /// Whether no member of `members` is named `name`; past 16 members the names go into `names`.
    private static func isNew(_ name: String, in members: [JSONValue.Member], names: inout Set<String>?) -> Bool {
        if names == nil {
            guard members.count >= 16 else { return !members.contains { $0.name == name } }
            names = Set(members.map(\.name))
        }
        return names!.insert(name).inserted
    }

    private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= options.maximumDepth else { throw error(.depthExceeded, "nesting deeper than \(options.maximumDepth) levels") }
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipSpace()
            elements.append(try value(depth: depth))
            skipSpace()
            guard index < bytes.count else { throw error(.truncated, "the text ends inside an array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw error(.malformed, "expected ',' or ']' in an array")
        }
    }

    private mutating func number() throws(JSONParseError) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        let integerStart = index
        let count = digits()
        guard count > 0 else { throw error(.invalidNumber, "a number needs digits", at: start) }
        if count > 1 && bytes[integerStart] == UInt8(ascii: "0") { throw error(.invalidNumber, "a number has a leading zero", at: start) }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error(.invalidNumber, "a number needs digits after '.'", at: start) }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error(.invalidNumber, "a number needs digits in its exponent", at: start) }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func string() throws(JSONParseError) -> String {
        let start = index
        index += 1
        // The common case, a string without escapes: one validation, one String.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                guard let text = String(validating: bytes[(start + 1)..<index], as: UTF8.self) else {
                    throw error(.invalidString, "a string is not valid UTF-8", at: start + 1)
                }
                index += 1
                return text
            }
            if byte < 0x20 { throw error(.invalidString, "a control character (0x\(String(byte, radix: 16))) inside a string") }
            if byte == UInt8(ascii: "\\") { break }
            index += 1
        }
        // Escapes (or the end of the text): scalar by scalar from the start.
        index = start + 1
        var scalars = String.UnicodeScalarView()
        var run = index
        func flushRun(_ end: Int) throws(JSONParseError) {
            guard run < end else { return }
            guard let text = String(validating: bytes[run..<end], as: UTF8.self) else {
                throw error(.invalidString, "a string is not valid UTF-8", at: run)
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard index < bytes.count else { throw error(.truncated, "the text ends inside a string that starts at offset \(start)") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flushRun(index)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error(.invalidString, "a control character (0x\(String(byte, radix: 16))) inside a string") }
            if byte == UInt8(ascii: "\\") {
                try flushRun(index)
                scalars.append(try escape())
                run = index
                continue
            }
            index += 1
        }
    }

    /// Reads one escape sequence at `index` (the backslash).
    private mutating func escape() throws(JSONParseError) -> Unicode.Scalar {
        let start = index
        index += 1
        guard index < bytes.count else { throw error(.truncated, "the text ends inside an escape", at: start) }
        let c = bytes[index]
        index += 1
        switch c {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hex4(start: start)
            if (0xD800..<0xDC00).contains(high) {
                guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error(.invalidString, "a high surrogate escape without its low surrogate", at: start)
                }
                index += 2
                let low = try hex4(start: start)
                guard (0xDC00..<0xE000).contains(low) else { throw error(.invalidString, "a high surrogate escape without its low surrogate", at: start) }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw error(.invalidString, "a lone low surrogate escape", at: start) }
            return scalar
        default:
            throw error(.invalidString, "unknown escape '\\\(Self.printable(c))'", at: start)
        }
    }

    private mutating func hex4(start: Int) throws(JSONParseError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error(.invalidString, "a \\u escape needs four hex digits", at: start) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error(.invalidString, "a \\u escape needs four hex digits", at: start)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// A byte as a character when printable ASCII, else as hex.
    static func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16)
    }

    /// `text` cut to 40 characters for an error message.
    public static func clipped(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}
