/// One live key with its raw value payload, as stored (without the expire trailer).
public struct KVStoreEntry: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The value payload bytes exactly as MMKV stores them (see ``KVStoreValueCodec``).
    public var payload: [UInt8]
    /// The absolute expire-at time in Unix seconds (0 = never), or `nil` when the store does not
    /// have expiration enabled.
    public var expireAt: UInt32?

    /// Creates an entry.
    public init(key: String, payload: [UInt8], expireAt: UInt32? = nil) {
        self.key = key
        self.payload = payload
        self.expireAt = expireAt
    }
}
