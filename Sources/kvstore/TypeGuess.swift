import CofferJSON

/// The most plausible type of a payload whose type MMKV did not record, with how plausible it is.
///
/// The type is ``ValueType/guess(_:)``'s choice; the confidence (0 to at most 0.95, never 1: the
/// bytes alone cannot prove a type) weighs the evidence for it:
///
/// | type | evidence | confidence |
/// |---|---|---|
/// | string | the inner length matches and the text is printable UTF-8 | 0.9 (3+ characters), else 0.75 |
/// | strings | every element is printable UTF-8 and the lengths add up | 0.8 |
/// | double / float | finite, with few significant digits ("round": 0.1, 48.75) | 0.9 / 0.85 (≤ 6 / ≤ 3 digits), else 0.8 |
/// | int64 | exactly one minimal varint | 0.85 (10-byte negative), 0.75 (several bytes), 0.7 (one byte) |
/// | ambiguous | the single byte 00: an empty string, empty bytes, false and 0 alike (value `""`) | 0.5 |
/// | bool | the single byte 01: also the int 1 | 0.5 |
/// | bytes | the inner length matches, the contents are not text | 0.6 |
/// | float / double | right size, but not round | 0.35 |
/// | raw | no type fits | 0.1 |
struct TypeGuess {
    var type: ValueType
    /// Whether the payload is the byte 00, which no type can be told from (``ValueType/isAmbiguous(_:)``):
    /// the guess is then shown as `ambiguous` with an empty value, as `get` prints it.
    var isAmbiguous: Bool
    /// How plausible the type is, in (0, 0.95].
    var confidence: Double
    /// Why, in a few words.
    var reason: String

    init(_ payload: [UInt8]) {
        type = ValueType.guess(payload)
        isAmbiguous = payload.withUnsafeBytes { ValueType.isAmbiguous($0) }
        switch type {
        case .bool:
            confidence = 0.5
            reason = isAmbiguous ? "the byte 00: an empty string, empty bytes, false or 0 alike" : "the byte 01: also the int 1"
        case .string:
            let length = type.decode(payload)?.count ?? 0
            confidence = length >= 3 ? 0.9 : 0.75
            reason = "printable UTF-8 with a matching length prefix"
        case .strings:
            confidence = 0.8
            reason = "a list of printable UTF-8 strings whose lengths add up"
        case .float, .double:
            let digits = type.decode(payload).map(ValueType.significantDigits) ?? Int.max
            let round = type == .float ? 6 : 12
            if digits <= round {
                confidence = digits <= 3 ? 0.9 : (digits <= 6 ? 0.85 : 0.8)
                reason = "a finite \(type.rawValue) with \(digits) significant digits"
            } else {
                confidence = 0.35
                reason = "\(payload.count) bytes that are no other value; not a round \(type.rawValue)"
            }
        case .int64:
            if payload.count == 10 {
                confidence = 0.85
                reason = "a 10-byte varint: how MMKV stores a negative integer"
            } else {
                confidence = payload.count == 1 ? 0.7 : 0.75
                reason = "exactly one minimal varint"
            }
        case .bytes:
            confidence = 0.6
            reason = "a matching length prefix, contents not text"
        case .raw, .int32, .uint32, .uint64:
            confidence = 0.1
            reason = "no type fits these bytes"
        }
    }

    /// The type's name (`ambiguous` for the byte 00).
    var name: String { isAmbiguous ? "ambiguous" : type.rawValue }

    /// The value as JSON (`""` for the byte 00).
    func value(_ payload: [UInt8]) -> JSONValue {
        isAmbiguous ? .string("") : type.jsonValue(payload) ?? .null
    }

    /// The guess as JSON: type, value, confidence and reason.
    func json(_ payload: [UInt8]) -> JSONValue {
        JSONValue(object: [
            ("type", .string(name)), ("value", value(payload)),
            ("confidence", .number(Self.format(confidence))), ("reason", .string(reason)),
        ])
    }

    /// The guess as text: `type value (confidence C: reason)`, worded as a guess.
    func text(_ payload: [UInt8]) -> String {
        "\(name) \(value(payload).serialized) (confidence \(Self.format(confidence)): \(reason))"
    }

    private static func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        return "0." + (hundredths < 10 ? "0" : "") + String(hundredths)
    }
}
