import ASN1Kit
import ArgumentParser
import CofferJSON
import KVStorage

/// The value types `kvstore` reads and writes, each stored exactly as MMKV stores it (see
/// `KVStoreValueCodec`). MMKV records no type in its files, so reading needs the type from the user
/// or a guess (``guess(_:)``).
///
/// Two types extend the contract's list: `strings` (MMKV's `vector<string>`, written as a JSON array
/// of strings) and `raw` (the payload bytes as hex, exactly as stored, for payloads that are no value
/// of any other type).
enum ValueType: String, CaseIterable, ExpressibleByArgument {
    case string, bytes, int32, uint32, int64, uint64, bool, float, double, strings, raw

    /// Parses the text form of a value of this type into its stored payload.
    ///
    /// Text forms: strings as they are; bytes and raw as hex; integers in decimal; bools
    /// `true`/`false` (also `1`/`0`, `yes`/`no`); floats as any decimal or `inf`/`-inf`/`nan`;
    /// strings as a JSON array of strings.
    /// - Throws: `invalidValue`, naming the key but never the text.
    func encode(_ text: String, key: String) throws(KvstoreToolError) -> [UInt8] {
        func invalid(_ what: String) -> KvstoreToolError {
            KvstoreToolError("the value is not \(what)", key: key)
        }
        switch self {
        case .string: return KVStoreValueCodec.encode(text)
        case .bytes:
            guard let bytes = Hex.decode(text) else { throw invalid("an even-length hex string") }
            return KVStoreValueCodec.encode(bytes: bytes)
        case .raw:
            guard let bytes = Hex.decode(text), !bytes.isEmpty else { throw invalid("a non-empty even-length hex string") }
            return bytes
        case .int32:
            guard let value = Int32(text) else { throw invalid("a decimal int32") }
            return KVStoreValueCodec.encode(value)
        case .uint32:
            guard let value = UInt32(text) else { throw invalid("a decimal uint32") }
            return KVStoreValueCodec.encode(value)
        case .int64:
            guard let value = Int64(text) else { throw invalid("a decimal int64") }
            return KVStoreValueCodec.encode(value)
        case .uint64:
            guard let value = UInt64(text) else { throw invalid("a decimal uint64") }
            return KVStoreValueCodec.encode(value)
        case .bool:
            switch text.lowercased() {
            case "true", "1", "yes": return KVStoreValueCodec.encode(true)
            case "false", "0", "no": return KVStoreValueCodec.encode(false)
            default: throw invalid("a bool (true or false)")
            }
        case .float:
            guard let value = Float(text) else { throw invalid("a float") }
            return KVStoreValueCodec.encode(value)
        case .double:
            guard let value = Double(text) else { throw invalid("a double") }
            return KVStoreValueCodec.encode(value)
        case .strings:
            guard case let .array(elements)? = try? JSONParser.parse(Array(text.utf8), options: .storeDocuments) else {
                throw invalid("a JSON array of strings")
            }
            var strings: [String] = []
            for element in elements {
                guard case let .string(value) = element else { throw invalid("a JSON array of strings") }
                strings.append(value)
            }
            return KVStoreValueCodec.encode(strings)
        }
    }

    /// The text form of `payload` as a value of this type, or `nil` when it is not one.
    ///
    /// Integers print in decimal, floats in the shortest form that reads back to the same value
    /// (without a trailing `.0`), bools as `true`/`false`, bytes and raw as lowercase hex.
    func decode(_ payload: [UInt8]) -> String? {
        payload.withUnsafeBytes { buffer -> String? in
            switch self {
            case .string: return KVStoreValueCodec.decodeString(buffer)
            case .bytes: return KVStoreValueCodec.decodeBytesSlice(buffer).map { Hex.encode($0) }
            case .raw: return Hex.encode(payload)
            case .int32: return KVStoreValueCodec.decodeInt32(buffer).map { String($0) }
            case .uint32: return KVStoreValueCodec.decodeUInt32(buffer).map { String($0) }
            case .int64: return KVStoreValueCodec.decodeInt64(buffer).map { String($0) }
            case .uint64: return KVStoreValueCodec.decodeUInt64(buffer).map { String($0) }
            case .bool: return KVStoreValueCodec.decodeBool(buffer).map { $0 ? "true" : "false" }
            case .float: return KVStoreValueCodec.decodeFloat(buffer).map { ValueType.shortest($0.description) }
            case .double: return KVStoreValueCodec.decodeDouble(buffer).map { ValueType.shortest($0.description) }
            case .strings:
                return KVStoreValueCodec.decodeStrings(buffer).map { JSONValue.array($0.map { .string($0) }).serialized }
            }
        }
    }

    /// The value as JSON: numbers and bools as JSON literals (non-finite floats as strings), the rest
    /// as strings, `strings` as an array.
    func jsonValue(_ payload: [UInt8]) -> JSONValue? {
        guard let text = decode(payload) else { return nil }
        switch self {
        case .int32, .uint32, .int64, .uint64: return .number(text)
        case .bool: return .bool(text == "true")
        case .float, .double:
            return text.allSatisfy({ "0123456789.-+e".contains($0) }) ? .number(text) : .string(text)
        case .strings: return try? JSONParser.parse(Array(text.utf8), options: .storeDocuments)
        case .string, .bytes, .raw: return .string(text)
        }
    }

    /// The text form of a JSON value given for this type in an import file.
    func text(fromJSON value: JSONValue, key: String) throws(KvstoreToolError) -> String {
        switch value {
        case let .string(text): return text
        case let .number(literal) where self != .string && self != .bytes && self != .raw: return literal
        case let .bool(flag) where self == .bool: return flag ? "true" : "false"
        case .array where self == .strings: return value.serialized
        default:
            throw KvstoreToolError("the value given for type \(rawValue) has the wrong JSON type", key: key)
        }
    }

    /// Swift's shortest round-tripping float text without a trailing `.0` (`3`, not `3.0`).
    static func shortest(_ description: String) -> String {
        description.hasSuffix(".0") ? String(description.dropLast(2)) : description
    }

    /// Whether encoding the decoded value again gives exactly `payload` (so the type is a faithful
    /// reading of the bytes).
    func roundTrips(_ payload: [UInt8]) -> Bool {
        guard let text = decode(payload), let again = try? encode(text, key: "") else { return false }
        return again == payload
    }

    /// The most plausible type of a payload whose type is unknown, chosen so that the value's text
    /// form encodes back to exactly the same bytes. In order:
    ///
    /// 1. a single byte `00`/`01` → `bool` (MMKV's bool; `00` is also an empty string, empty bytes and
    ///    a zero: see ``isAmbiguous(_:)``, which `get` and `dump` check first);
    /// 2. a length-prefixed valid UTF-8 string with no control characters but tab, CR and LF → `string`;
    /// 3. a length-prefixed list of such strings (at least one) → `strings`;
    /// 4. 4 bytes that are a float with at most 6 significant digits → `float`; 8 bytes that are a
    ///    double with at most 12 → `double`;
    /// 5. exactly one minimal varint → `int64` (negative int32s are sign-extended the same way);
    /// 6. any other length-prefixed byte string → `bytes`;
    /// 7. other 4 bytes → `float`, other 8 bytes → `double`;
    /// 8. anything else → `raw`.
    static func guess(_ payload: [UInt8]) -> ValueType {
        payload.withUnsafeBytes { guess($0) }
    }

    /// ``guess(_:)-([UInt8])`` on borrowed bytes (a value in a store's mapping): a string or a byte
    /// string, however long, is recognised without copying it.
    static func guess(_ payload: UnsafeRawBufferPointer) -> ValueType {
        if payload.count == 1 && payload[0] <= 1 { return .bool }
        if let text = minimalBytesSlice(payload), KVStoreValueCodec.decodeStringSlice(payload) != nil, isPrintable(text) {
            return .string
        }
        if let list = KVStoreValueCodec.decodeStrings(payload), !list.isEmpty, list.allSatisfy(isPrintable),
            ValueType.strings.roundTrips(Array(payload))
        {
            return .strings
        }
        // The remaining checks but `bytes` concern payloads of at most 10 bytes: copying them is free.
        let small = payload.count <= 10 ? Array(payload) : []
        // A float whose shortest form is short (0.1, 48.75) is likelier than the large integer the
        // same 4 or 8 bytes would be as a varint.
        if payload.count == 4, let text = ValueType.float.decode(small), significantDigits(text) <= 6, ValueType.float.roundTrips(small) {
            return .float
        }
        if payload.count == 8, let text = ValueType.double.decode(small), significantDigits(text) <= 12,
            ValueType.double.roundTrips(small)
        {
            return .double
        }
        if !small.isEmpty, ValueType.int64.roundTrips(small) { return .int64 }
        if minimalBytesSlice(payload) != nil { return .bytes }
        if payload.count == 4, ValueType.float.roundTrips(small) { return .float }
        if payload.count == 8, ValueType.double.roundTrips(small) { return .double }
        return .raw
    }

    /// Whether `payload` is the single byte `00`: an empty string, empty bytes, an empty list of
    /// strings, `false` and the integer 0 are all stored that way, so the bytes cannot tell which was
    /// meant. `get` prints it as empty and says so on stderr; `dump` guesses `ambiguous`.
    static func isAmbiguous(_ payload: UnsafeRawBufferPointer) -> Bool {
        payload.count == 1 && payload[0] == 0
    }

    /// The note `get` prints on stderr for an ambiguous payload (``isAmbiguous(_:)``).
    static let ambiguityNote = "the 1-byte value 00 reads as an empty string, false or 0; give --type to choose"

    /// The bytes after the inner length of a length-prefixed byte string whose length varint is
    /// minimal (so `bytes` and `string` encode the value back to the same payload), or `nil`.
    private static func minimalBytesSlice(_ payload: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard let slice = KVStoreValueCodec.decodeBytesSlice(payload) else { return nil }
        var length = slice.count >> 7
        var prefix = 1
        while length > 0 {
            length >>= 7
            prefix += 1
        }
        return payload.count - slice.count == prefix ? slice : nil
    }

    /// Whether UTF-8 `bytes` hold no control character but tab, LF and CR (the bytes of a multi-byte
    /// sequence are all 0x80 or above, so a byte scan sees exactly the ASCII controls).
    private static func isPrintable(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.allSatisfy { $0 >= 0x20 && $0 != 0x7F || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// The number of significant decimal digits in a float's text (`inf`/`nan` count as many).
    static func significantDigits(_ text: String) -> Int {
        guard text.first?.isNumber == true || text.first == "-" else { return Int.max }
        let mantissa = text.split(separator: "e", maxSplits: 1).first ?? ""
        let digits = mantissa.filter(\.isNumber).drop { $0 == "0" }
        return max(1, String(digits.reversed()).drop { $0 == "0" }.count)
    }

    private static func isPrintable(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    }
}
