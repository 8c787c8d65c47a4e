/// Read-modify-write access to a store under its lock: the instance mutex and, in multi-process
/// mode, the exclusive `flock`, held for the whole ``KVStore/transaction(_:)`` body, so no other
/// thread or process can write in between (shared counters never lose an update).
///
/// Only valid inside the body it is passed to; do not let it escape.
public struct KVStoreTransaction {
    let core: StoreCore

    /// The raw payload of `key` (without the expire trailer), or `nil`.
    public func rawValue(forKey key: String) throws(KVStoreError) -> [UInt8]? {
        try core.withPayload(key) { Array($0) }
    }

    /// Stores a raw payload under `key` (see ``KVStoreValueCodec``).
    public func setRaw(_ payload: [UInt8], forKey key: String, expireAfter: UInt32? = nil) throws(KVStoreError) {
        try core.setRawValue(payload, forKey: key, expireAfter: expireAfter)
    }

    /// The int64 stored under `key`, or `nil`.
    public func int64(forKey key: String) throws(KVStoreError) -> Int64? {
        try core.value(forKey: key, as: "int64") { KVStoreValueCodec.decodeInt64($0) }
    }

    /// Stores an int64 under `key`.
    public func set(_ value: Int64, forKey key: String) throws(KVStoreError) {
        let varint = UInt64(bitPattern: value)
        try core.setValue(forKey: key, count: Varint.size(varint), expireAfter: nil) { Varint.write(varint, to: $0) }
    }

    /// The string stored under `key`, or `nil`.
    public func string(forKey key: String) throws(KVStoreError) -> String? {
        try core.value(forKey: key, as: "string") { KVStoreValueCodec.decodeString($0) }
    }

    /// Stores a string under `key`.
    public func set(_ value: String, forKey key: String) throws(KVStoreError) {
        try setRaw(KVStoreValueCodec.encode(value), forKey: key)
    }

    /// Removes `key` (a tombstone).
    public func remove(_ key: String) throws(KVStoreError) {
        try core.removeValue(forKey: key)
    }
}

extension KVStore {
    /// Runs `body` with exclusive access to the store (mutex plus, in multi-process mode, the
    /// exclusive `flock` on the `.crc` file), after picking up other processes' changes.
    ///
    /// ```swift
    /// try store.transaction { tx in
    ///     try tx.set((tx.int64(forKey: "counter") ?? 0) + 1, forKey: "counter")
    /// }
    /// ```
    public func transaction<R: Sendable>(_ body: (KVStoreTransaction) throws(KVStoreError) -> R) throws(KVStoreError) -> R {
        try write { core throws(KVStoreError) in try body(KVStoreTransaction(core: core)) }
    }
}
