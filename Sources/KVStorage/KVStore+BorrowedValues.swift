import CofferErrors

/// Zero-copy reads: a value's bytes lent to a closure straight from the mapping (or, in an encrypted
/// store, from the decrypted copy of the data region), without an array or a `String`.
///
/// The body runs under the store's lock (the instance mutex and, in multi-process mode, the shared
/// `flock`), so the bytes cannot change or move while it runs. For the same reason the body must
/// not call back into the store (the mutex is not recursive: it would deadlock) and must not keep
/// the pointer past its return (the next write may remap the file, and another process may compact
/// it). Copy what has to outlive the call. Keep the body short: every other access to the store
/// waits for it.
///
/// The body throws ``KVStoreError`` like the rest of the store: its error comes out of the call
/// unchanged, so a caller tells a store failure from its own by the code (or wraps an error of its
/// own as the ``KVStoreError/cause`` of one).
///
/// The generic entry points are `@inlinable` shells over one non-generic call, so that a caller in
/// another module gets them specialised (an unspecialised generic call looks up type metadata on
/// every read, which costs more than the read).
extension KVStore {
    /// Calls `body` with the raw payload of `key` (exactly as stored, without the expire trailer)
    /// borrowed from the store, and returns its result; returns `nil` without calling it when the
    /// key is absent or expired.
    ///
    /// ```swift
    /// let length = try store.withValue(forKey: "blob") { $0.count }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - body: Reads the payload. It runs under the store's lock: it must not call into this store
    ///     and must not let the buffer escape.
    /// - Throws: ``KVStoreError`` — `closed`, `systemCall` (multi-process locking or reload), or
    ///   whatever `body` throws.
    @inlinable
    public func withValue<R>(
        forKey key: String, _ body: (UnsafeRawBufferPointer) throws(KVStoreError) -> R
    ) throws(KVStoreError) -> R? {
        var result: R?
        try withBorrowedPayload(forKey: key, asString: false) { (payload) throws(KVStoreError) in result = try body(payload) }
        return result
    }

    /// Calls `body` with the UTF-8 bytes of the string stored under `key`, borrowed from the store
    /// (the bytes after the payload's inner length, checked to be valid UTF-8), and returns its
    /// result; returns `nil` without calling it when the key is absent or expired.
    ///
    /// ```swift
    /// let isHTTPS = try store.withString(forKey: "url") { $0.starts(with: "https:".utf8) }
    /// let copy = try store.withString(forKey: "name") { String(decoding: $0, as: UTF8.self) }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - body: Reads the UTF-8 bytes. It runs under the store's lock: it must not call into this
    ///     store and must not let the buffer escape.
    /// - Throws: ``KVStoreError`` — `typeMismatch` when the payload is not a length-prefixed valid
    ///   UTF-8 string, `closed`, `systemCall`, or whatever `body` throws.
    @inlinable
    public func withString<R>(
        forKey key: String, _ body: (UnsafeBufferPointer<UInt8>) throws(KVStoreError) -> R
    ) throws(KVStoreError) -> R? {
        var result: R?
        try withBorrowedPayload(forKey: key, asString: true) { (text) throws(KVStoreError) in
            result = try body(text.assumingMemoryBound(to: UInt8.self))
        }
        return result
    }

    /// Calls `body` with the raw payload of `key` as a `RawSpan` borrowed from the store: the same
    /// bytes as ``withValue(forKey:_:)``, with bounds-checked access and a lifetime the compiler
    /// keeps inside the call. Returns `nil` without calling `body` when the key is absent or expired.
    ///
    /// - Throws: ``KVStoreError`` — `closed`, `systemCall`, or whatever `body` throws.
    @inlinable
    public func withValueSpan<R>(
        forKey key: String, _ body: (RawSpan) throws(KVStoreError) -> R
    ) throws(KVStoreError) -> R? {
        var result: R?
        try withBorrowedPayload(forKey: key, asString: false) { (payload) throws(KVStoreError) in result = try body(payload.bytes) }
        return result
    }

    /// Calls `body` with the payload of `key` (`asString`: the string's UTF-8 bytes, or
    /// `typeMismatch`) under the store's lock; does not call it when the key is absent or expired.
    @usableFromInline
    func withBorrowedPayload(
        forKey key: String, asString: Bool, _ body: (UnsafeRawBufferPointer) throws(KVStoreError) -> Void
    ) throws(KVStoreError) {
        // The inner closure reports a mismatch by its size instead of throwing it: the error names
        // the key, and a closure that captured the key would retain it on every read.
        let mismatch = try read { core throws(KVStoreError) -> Int? in
            try core.withPayload(key) { payload throws(KVStoreError) -> Int? in
                guard asString else {
                    try body(payload)
                    return nil
                }
                guard let text = KVStoreValueCodec.decodeStringSlice(payload) else { return payload.count }
                try body(text)
                return nil
            } ?? nil
        }
        if let mismatch {
            throw KVStoreError(.typeMismatch, "the \(mismatch)-byte value is not a valid string", key: key, operation: "get")
        }
    }
}
