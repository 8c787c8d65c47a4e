/// One change to a store, as ``KVStore/changes(forKey:pollInterval:)`` reports it.
public struct KVStoreChange: Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The key was given a value.
        case set
        /// The key was removed.
        case removed
        /// Every key was removed (`clearAll`); ``KVStoreChange/key`` is `nil`.
        case cleared
        /// The contents were replaced wholesale (`restore`); ``KVStoreChange/key`` is `nil`.
        case replaced
        /// Another process rewrote the store (compaction, clear, re-key, …) and it was reloaded: any
        /// key may have changed; ``KVStoreChange/key`` is `nil`.
        case reloaded
    }

    /// The key, or `nil` for a change that concerns every key.
    public var key: String?
    /// What happened.
    public var kind: Kind
    /// Whether another process made the change (noticed through the meta file's sequence, CRC and
    /// size in multi-process mode).
    public var byOtherProcess: Bool

    /// Creates a change record.
    public init(key: String?, kind: Kind, byOtherProcess: Bool) {
        self.key = key
        self.kind = kind
        self.byOtherProcess = byOtherProcess
    }

    /// Whether an observer of `observedKey` (`nil`: every key) should see this change.
    func concerns(_ observedKey: String?) -> Bool {
        guard let observedKey, let key else { return true }
        return key == observedKey
    }
}
