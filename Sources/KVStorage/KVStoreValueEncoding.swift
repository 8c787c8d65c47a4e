#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns `Encodable` values into the bytes ``KVStore/set(_:forKey:encoder:expireAfter:)`` stores.
///
/// `JSONEncoder` (the default) and `PropertyListEncoder` conform; conform your own encoder to store
/// values in another format.
public protocol KVStoreValueEncoder: Sendable {
    /// The encoded bytes of `value`.
    ///
    /// - Throws: Whatever the underlying encoder throws (reported as
    ///   ``CofferErrors/ErrorCode/invalidArgument``).
    func encodeForStore<Value: Encodable>(_ value: Value) throws -> [UInt8]
}

/// Turns stored bytes back into `Decodable` values for ``KVStore/get(_:forKey:decoder:)``.
///
/// `JSONDecoder` (the default) and `PropertyListDecoder` conform.
public protocol KVStoreValueDecoder: Sendable {
    /// The value of type `type` that `bytes` encode.
    ///
    /// - Throws: Whatever the underlying decoder throws (reported as
    ///   ``CofferErrors/ErrorCode/typeMismatch``).
    func decodeFromStore<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws -> Value
}

extension JSONEncoder: KVStoreValueEncoder {
    /// `encode(_:)` as bytes.
    public func encodeForStore<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        [UInt8](try encode(value))
    }
}

extension JSONDecoder: KVStoreValueDecoder {
    /// `decode(_:from:)` from bytes.
    public func decodeFromStore<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws -> Value {
        try decode(type, from: Data(bytes))
    }
}

extension PropertyListEncoder: KVStoreValueEncoder {
    /// `encode(_:)` as bytes (in the encoder's `outputFormat`).
    public func encodeForStore<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        [UInt8](try encode(value))
    }
}

extension PropertyListDecoder: KVStoreValueDecoder {
    /// `decode(_:from:)` from bytes (binary or XML property lists).
    public func decodeFromStore<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws -> Value {
        try decode(type, from: Data(bytes))
    }
}
