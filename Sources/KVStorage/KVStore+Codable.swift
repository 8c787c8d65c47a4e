import CofferErrors
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `Codable` values, so a store can be used like `UserDefaults`.
///
/// A value is encoded (JSON by default) and stored as an MMKV `bytes` payload: the inner length,
/// then the encoded bytes. MMKV reads it back with `getBytes`, and `kvstore get --type bytes`
/// prints it. The typed setters (`Int32`, `String`, `[UInt8]`, …) are more specific and win over
/// these for their own types; a plain integer literal (`Int`) is `Encodable` and is stored as JSON,
/// so read it back with ``get(_:forKey:decoder:)``, not ``int64(forKey:)``.
extension KVStore {
    /// Stores `value` encoded by `encoder` as a `bytes` payload under `key`.
    ///
    /// - Parameters:
    ///   - encoder: How the value becomes bytes (default: a `JSONEncoder` with its default settings).
    ///   - expireAfter: Seconds until the value expires (0 = never); `nil` uses the configuration's
    ///     default. Requires expiration to be enabled.
    /// - Throws: ``CofferErrors/ErrorCode/invalidArgument`` when the value does not encode, and
    ///   every error ``setRaw(_:forKey:expireAfter:)`` throws.
    public func set<Value: Encodable>(
        _ value: Value, forKey key: String, encoder: some KVStoreValueEncoder = JSONEncoder(), expireAfter: UInt32? = nil
    ) throws(KVStoreError) {
        let encoded: [UInt8]
        do {
            encoded = try encoder.encodeForStore(value)
        } catch {
            throw KVStoreError(.invalidArgument, "the \(Value.self) value does not encode: \(Self.describeCodingError(error))", key: key, operation: "set")
        }
        try setRaw(KVStoreValueCodec.encode(bytes: encoded), forKey: key, expireAfter: expireAfter)
    }

    /// The value of type `type` stored under `key`, decoded by `decoder`; `nil` when the key is
    /// absent or expired.
    ///
    /// - Parameter decoder: How the stored bytes become a value (default: a `JSONDecoder`).
    /// - Throws: ``CofferErrors/ErrorCode/typeMismatch`` when the payload is not a `bytes` payload
    ///   or its bytes do not decode as `Value`.
    public func get<Value: Decodable>(
        _ type: Value.Type, forKey key: String, decoder: some KVStoreValueDecoder = JSONDecoder()
    ) throws(KVStoreError) -> Value? {
        guard let payload = try rawValue(forKey: key) else { return nil }
        guard let encoded = KVStoreValueCodec.decodeBytes(payload) else {
            throw KVStoreError(.typeMismatch, "the \(payload.count)-byte value is not a bytes payload, so not a \(Value.self)", key: key, operation: "get")
        }
        do {
            return try decoder.decodeFromStore(type, from: encoded)
        } catch {
            throw KVStoreError(.typeMismatch, "the \(encoded.count)-byte value does not decode as \(Value.self): \(Self.describeCodingError(error))", key: key, operation: "get")
        }
    }

    /// What went wrong while encoding or decoding, without the value itself: the coding path and the
    /// coder's explanation.
    static func describeCodingError(_ error: any Error) -> String {
        let context: (path: [any CodingKey], text: String)?
        switch error {
        case let EncodingError.invalidValue(_, value): context = (value.codingPath, value.debugDescription)
        case let DecodingError.typeMismatch(_, value), let DecodingError.valueNotFound(_, value),
            let DecodingError.keyNotFound(_, value), let DecodingError.dataCorrupted(value):
            context = (value.codingPath, value.debugDescription)
        default: context = nil
        }
        guard let context else { return "\(type(of: error))" }
        if case let DecodingError.keyNotFound(missing, _) = error {
            return "no value for \(Self.path(context.path + [missing]))"
        }
        return context.path.isEmpty ? context.text : "\(Self.path(context.path)): \(context.text)"
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
