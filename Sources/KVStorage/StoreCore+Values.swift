import CofferErrors

/// Value access by key, written once: ``KVStore``'s typed and raw accessors and
/// ``KVStoreTransaction``'s run these under the lock they hold.
extension StoreCore {
    /// Appends `key` with a payload of `count` bytes that `writePayload` fills in, expiring after
    /// `expireAfter` seconds (0 = never, `nil` = the configuration's default).
    @inline(__always)
    func setValue(
        forKey key: String, count: Int, expireAfter: UInt32?, _ writePayload: (UnsafeMutableRawPointer) -> Void
    ) throws(KVStoreError) {
        let expireAt = expiration || expireAfter != nil ? try self.expireAt(after: expireAfter, key: key) : 0
        try append(key: key, payloadCount: count, expireAt: expireAt, writePayload: writePayload)
    }

    /// Appends `key` with a raw payload (as ``KVStoreValueCodec`` produces it).
    func setRawValue(_ payload: [UInt8], forKey key: String, expireAfter: UInt32?) throws(KVStoreError) {
        guard !payload.isEmpty else {
            throw KVStoreError(.invalidArgument, "a value payload cannot be empty (an empty string is the byte 00)", key: key, operation: "set")
        }
        try setValue(forKey: key, count: payload.count, expireAfter: expireAfter) { target in
            payload.withUnsafeBytes { target.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        }
    }

    /// The live value of `key` decoded by `decoder`; `nil` when absent or expired, `typeMismatch`
    /// (naming `type`) when the payload is not such a value.
    @inline(__always)
    func value<T>(forKey key: String, as type: StaticString, _ decoder: (UnsafeRawBufferPointer) -> T?) throws(KVStoreError) -> T? {
        try withPayload(key) { payload throws(KVStoreError) -> T in
            guard let value = decoder(payload) else {
                throw KVStoreError(.typeMismatch, "the \(payload.count)-byte value is not a valid \(type)", key: key, operation: "get")
            }
            return value
        }
    }

    /// Appends a tombstone for `key`; nothing when the key is absent.
    func removeValue(forKey key: String) throws(KVStoreError) {
        guard entry(for: key) != nil else { return }
        try append(key: key, payloadCount: 0, expireAt: 0) { _ in }
    }
}
