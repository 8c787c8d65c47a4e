import CofferErrors
import CofferJSON
import Testing

/// The shared JSON reader and writer of keytool, kvstore and the JWK codec.
@Suite("JSON parser and writer")
struct JSONParserTests {
    static func parse(_ text: String, _ options: JSONParser.Options = .init()) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8), options: options)
    }

    @Test("values keep member order, member offsets and number literals")
    func values() throws {
        let value = try Self.parse(#" {"b": [1, -0.5e+3, true, null], "a": "x\u00e9\ud83d\ude00"} "#)
        let members = try #require(value.members)
        #expect(members.map(\.name) == ["b", "a"])
        #expect(members.map(\.offset) == [2, 33])
        #expect(value["b"] == .array([.number("1"), .number("-0.5e+3"), .bool(true), .null]))
        #expect(value["a"]?.stringValue == "xé😀")
        #expect(value["missing"] == nil)
    }

    @Test("duplicate member names are an error unless allowed", arguments: [false, true])
    func duplicates(allowed: Bool) throws {
        let text = #"{"k": 1, "k": 2}"#
        if allowed {
            let value = try Self.parse(text, .init(allowsDuplicateMembers: true))
            #expect(value.members?.map(\.value) == [.number("1"), .number("2")])
        } else {
            let error = try #require(throws: JSONParseError.self) { try Self.parse(text) }
            #expect(error.code == .duplicateMember)
            #expect(error.offset == 9)
            #expect(error.reason.contains("appears twice"))
        }
    }

    @Test("nesting is capped before it costs anything")
    func depth() throws {
        let deep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        let error = try #require(throws: JSONParseError.self) { try Self.parse(deep) }
        #expect(error.code == .depthExceeded)
        #expect(error.reason == "nesting deeper than 32 levels")
        #expect(try Self.parse(deep, .init(maximumDepth: 64)) != .null)
        let hostile = String(repeating: "[", count: 1_000_000)
        #expect(throws: JSONParseError.self) { try Self.parse(hostile) }
    }

    @Test("malformed text names the byte offset", arguments: [
        ("", 0, "the text ends where a value was expected", .truncated),
        ("01", 0, "a number has a leading zero", .invalidNumber),
        ("1.", 0, "a number needs digits after '.'", .invalidNumber),
        (#"{"a" 1}"#, 5, "expected ':' after a member name", .malformed),
        (#"["\x"]"#, 2, "unknown escape '\\x'", .invalidString),
        (#""\ud800""#, 1, "a high surrogate escape without its low surrogate", .invalidString),
        ("[1,]", 3, "unexpected character ']' where a value was expected", .malformed),
        ("{} x", 3, "unexpected text after the JSON value", .trailingData),
        ("\"a\u{01}\"", 2, "a control character (0x1) inside a string", .invalidString),
    ] as [(String, Int, String, JSONParseError.Code)])
    func malformed(text: String, offset: Int, reason: String, code: JSONParseError.Code) throws {
        let error = try #require(throws: JSONParseError.self) { try Self.parse(text) }
        #expect(error.code == code)
        #expect(error.offset == offset)
        #expect(error.context.offset == offset)
        #expect(error.reason == reason)
        #expect(error.description == "JSON is malformed at offset \(offset): \(reason)")
    }

    @Test("invalid UTF-8 inside a string is an error")
    func invalidUTF8() throws {
        let error = try #require(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0x61, 0xC3, 0x22]) }
        #expect(error.code == .invalidString)
        #expect(error.reason == "a string is not valid UTF-8")
    }

    @Test("errors compare by code only, as every Coffer error; offset and reason are read on their own")
    func equality() throws {
        let a = JSONParseError(.truncated, "the text ends where a value was expected", offset: 0)
        let b = JSONParseError(.truncated, "the text ends inside an array", offset: 7)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != JSONParseError(.trailingData, a.reason, offset: 0))
        #expect(JSONParseError(.malformed, "x", offset: 1).code == .malformed)
        #expect(a.cause == nil)
        let thrown = try #require(throws: JSONParseError.self) { try Self.parse("[1, 2") }
        #expect(thrown == a)
        #expect(thrown.offset == 5)
        #expect(thrown.reason == "the text ends inside an array")
    }

    @Test("serialization is compact, ordered, and escapes controls and DEL")
    func serialization() throws {
        let value = JSONValue(object: [("z", .string("a\"b\\c\n\u{08}\u{0C}\u{01}\u{7F}é")), ("a", .array([.number("12"), .bool(false), .null]))])
        #expect(value.serialized == #"{"z":"a\"b\\c\n\b\f\u0001\u007fé","a":[12,false,null]}"#)
        let again = try Self.parse(value.serialized)
        #expect(again.serialized == value.serialized)
        #expect(again["z"] == value["z"])
        #expect(JSONValue.quote("tab\there") == #""tab\there""#)
    }
}
