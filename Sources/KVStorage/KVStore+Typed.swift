/// Typed values, stored exactly as MMKV stores them (see ``KVStoreValueCodec``).
///
/// Setters take an optional `expireAfter` in seconds (0 = never; `nil` = the configuration's
/// default), which needs expiration enabled on the store. Getters return `nil` for an absent or
/// expired key and throw `typeMismatch` when the stored payload is not a value of that type.
extension KVStore {
    // MARK: Setters

    /// Stores a bool (payload `00` / `01`).
    public func set(_ value: Bool, forKey key: String, expireAfter: UInt32? = nil) throws(KVStoreError) {
        try setVarint(value ? 1 : 0, forKey: key, expireAfter: expireAfter)
    }

    /// Stores an int32 (negative values as a 10-byte varint, as MMKV does).
    public func set(_ value: Int32, forKey key: String, expireAfter: UInt32? = nil) throws(KVStoreError) {
        try setVarint(UInt64(bitPattern: Int64(value)), forKey: key, expireAfter: expireAfter)
    }

    /// Stores a uint32.
    public func set(_ value: UInt32, forKey key: String, expireAfter: UInt32? = nil) throws(KVStoreError) {
        try setVarint(UInt64(value), forKey: key, expireAfter: expireAfter)
    }

    /// Stores an int64.
    public func set(_ value: Int64, forKey key: String, expireAfter: UInt32? = nil) throws(KVStoreError) {
        try setVarint(UInt64(bitPattern: value), forKey: key, expireAfter: expireAfter)
    }

    /// Stores a uint64.
    public func set(_ value: UInt64, forKey key: String, expireAfter: UInt32? = nil) throws(KVStoreError) {
        try setVarint(value, forKey: key, expireAfter: expireAfter)
    }

    /// Stores a float (4 bytes little-endian).
    public func set(_ value: Float, forKey key: String, expireAfter: UInt32? = nil) throws(KVStoreError) {
        let bits = value.bitPattern.littleEndian
        try setFixed(count: 4, forKey: key, expireAfter: expireAfter) { $0.storeBytes(of: bits, as: UInt32.self) }
    }

    /// Stores a double (8 bytes little-endian).
    public func set(_ value: Double, forKey key: String, expireAfter: UInt32? = nil) throws(KVStoreError) {
        let bits = value.bitPattern.littleEndian
        try setFixed(count: 8, forKey: key, expireAfter: expireAfter) { $0.storeBytes(of: bits, as: UInt64.self) }
    }

    /// Stores a string (inner UTF-8 length, then the bytes).
    public func set(_ value: String, forKey key: String, expireAfter: UInt32? = nil) throws(KVStoreError) {
        var text = value
        let length = text.utf8.count
        try setFixed(count: Varint.size(UInt64(length)) + length, forKey: key, expireAfter: expireAfter) { target in
            let prefix = Varint.write(UInt64(length), to: target)
            if length > 0 { text.withUTF8 { (target + prefix).copyMemory(from: $0.baseAddress!, byteCount: length) } }
        }
    }

    /// Stores bytes (inner length, then the bytes).
    public func set(_ value: [UInt8], forKey key: String, expireAfter: UInt32? = nil) throws(KVStoreError) {
        let length = value.count
        try setFixed(count: Varint.size(UInt64(length)) + length, forKey: key, expireAfter: expireAfter) { target in
            let prefix = Varint.write(UInt64(length), to: target)
            if length > 0 { value.withUnsafeBytes { (target + prefix).copyMemory(from: $0.baseAddress!, byteCount: length) } }
        }
    }

    /// Stores a vector of strings (MMKV's `vector<string>`).
    public func set(_ value: [String], forKey key: String, expireAfter: UInt32? = nil) throws(KVStoreError) {
        try setRaw(KVStoreValueCodec.encode(value), forKey: key, expireAfter: expireAfter)
    }

    private func setVarint(_ value: UInt64, forKey key: String, expireAfter: UInt32?) throws(KVStoreError) {
        try setFixed(count: Varint.size(value), forKey: key, expireAfter: expireAfter) { Varint.write(value, to: $0) }
    }

    @inline(__always)
    private func setFixed(
        count: Int, forKey key: String, expireAfter: UInt32?, _ writePayload: (UnsafeMutableRawPointer) -> Void
    ) throws(KVStoreError) {
        try write { core throws(KVStoreError) in try core.setValue(forKey: key, count: count, expireAfter: expireAfter, writePayload) }
    }

    // MARK: Getters

    /// The bool stored under `key` (any non-zero varint is true).
    public func bool(forKey key: String) throws(KVStoreError) -> Bool? {
        try decode(key, "bool") { KVStoreValueCodec.decodeBool($0) }
    }

    /// The int32 stored under `key`.
    public func int32(forKey key: String) throws(KVStoreError) -> Int32? {
        try decode(key, "int32") { KVStoreValueCodec.decodeInt32($0) }
    }

    /// The uint32 stored under `key`.
    public func uint32(forKey key: String) throws(KVStoreError) -> UInt32? {
        try decode(key, "uint32") { KVStoreValueCodec.decodeUInt32($0) }
    }

    /// The int64 stored under `key`.
    public func int64(forKey key: String) throws(KVStoreError) -> Int64? {
        try decode(key, "int64") { KVStoreValueCodec.decodeInt64($0) }
    }

    /// The uint64 stored under `key`.
    public func uint64(forKey key: String) throws(KVStoreError) -> UInt64? {
        try decode(key, "uint64") { KVStoreValueCodec.decodeUInt64($0) }
    }

    /// The float stored under `key`.
    public func float(forKey key: String) throws(KVStoreError) -> Float? {
        try decode(key, "float") { KVStoreValueCodec.decodeFloat($0) }
    }

    /// The double stored under `key`.
    public func double(forKey key: String) throws(KVStoreError) -> Double? {
        try decode(key, "double") { KVStoreValueCodec.decodeDouble($0) }
    }

    /// The string stored under `key`.
    public func string(forKey key: String) throws(KVStoreError) -> String? {
        try decode(key, "string") { KVStoreValueCodec.decodeString($0) }
    }

    /// The bytes stored under `key`.
    public func bytes(forKey key: String) throws(KVStoreError) -> [UInt8]? {
        try decode(key, "bytes") { KVStoreValueCodec.decodeBytes($0) }
    }

    /// The vector of strings stored under `key`.
    public func strings(forKey key: String) throws(KVStoreError) -> [String]? {
        try decode(key, "[String]") { KVStoreValueCodec.decodeStrings($0) }
    }

    @inline(__always)
    private func decode<T: Sendable>(
        _ key: String, _ type: StaticString, _ decoder: (UnsafeRawBufferPointer) -> T?
    ) throws(KVStoreError) -> T? {
        try read { core throws(KVStoreError) in try core.value(forKey: key, as: type, decoder) }
    }
}
