import CofferErrors

/// Value access by key, written once: ``KVStore``'s typed and raw accessors and
/// ``KVStoreTransaction``'s run these under the lock they hold.
extension StoreCore {
    /// Appends `key` with a payload of `count` bytes that `writePayload` fills in, expiring after
    /// `expireAfter` seconds (0 = never, `nil` = the configuration's default).
    @inline(__always) @discardableResult
    func setValue(
        forKey key: String, count: Int, expireAfter: UInt32?, _ writePayload: (UnsafeMutableRawPointer) -> Void
    ) throws(KVStoreError) -> (slot: Int, valueOffset: Int)? {
        let expireAt = expiration || expireAfter != nil ? try self.expireAt(after: expireAfter, key: key) : 0
        return try append(key: key, payloadCount: count, expireAt: expireAt, writePayload: writePayload)
    }

    /// Stores a string (inner UTF-8 length, then the bytes) and keeps it beside the key's slot, so
    /// that reading it back returns this `String` (see ``CachedStrings``).
    @inline(__always)
    func setString(_ value: String, forKey key: String, expireAfter: UInt32?) throws(KVStoreError) {
        var text = value
        let length = text.utf8.count
        let location = try setValue(forKey: key, count: Varint.size(UInt64(length)) + length, expireAfter: expireAfter) { target in
            let prefix = Varint.write(UInt64(length), to: target)
            if length > 0 { text.withUTF8 { (target + prefix).copyMemory(from: $0.baseAddress!, byteCount: length) } }
        }
        if let location, CachedStrings.lengths.contains(length) {
            index.keep(value, at: location.slot, valueOffset: UInt32(location.valueOffset))
        }
    }

    /// The live string of `key`, `nil` when absent or expired, `typeMismatch` when the payload is not
    /// a string. A string set or read before through the same slot and value is returned as it is,
    /// without a copy (see ``CachedStrings``).
    @inline(__always)
    func string(forKey key: String) throws(KVStoreError) -> String? {
        guard let base = valueBase, let found = index.probe.locate(key, base: base, limit: valueLimit),
            let payload = livePayload(found.value, base: base)
        else { return nil }
        if let kept = index.probe.strings?.text(at: found.position, valueOffset: found.value.offset) { return kept }
        guard let text = KVStoreValueCodec.decodeString(payload) else { throw typeMismatch(payload.count, "string", key: key) }
        if CachedStrings.lengths.contains(text.utf8.count) { index.keep(text, at: found.position, valueOffset: found.value.offset) }
        return text
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
            guard let value = decoder(payload) else { throw typeMismatch(payload.count, type, key: key) }
            return value
        }
    }

    /// The error of a getter whose payload of `count` bytes is not a `type`.
    @inline(never)
    func typeMismatch(_ count: Int, _ type: StaticString, key: String) -> KVStoreError {
        KVStoreError(.typeMismatch, "the \(count)-byte value is not a valid \(type)", key: key, operation: "get")
    }

    /// Appends a tombstone for `key`; nothing when the key is absent.
    func removeValue(forKey key: String) throws(KVStoreError) {
        guard entry(for: key) != nil else { return }
        try append(key: key, payloadCount: 0, expireAt: 0) { _ in }
    }
}
