import AsymmetricKeys
import X509Kit
/// What a file holds, entry by entry: every entry that was read, and every entry that was not with
/// its reason (``KeyEntryFailure``). One entry Coffer cannot read never hides the others.
public struct KeyDecodingResult: Sendable {
    /// The entries read, in file order.
    public var entries: [DecodedKey]
    /// The entries not read, in file order.
    public var failures: [KeyEntryFailure]

    public init(entries: [DecodedKey] = [], failures: [KeyEntryFailure] = []) {
        self.entries = entries
        self.failures = failures
    }

    /// Adds `other`'s entries and failures after these.
    mutating func append(_ other: KeyDecodingResult) {
        entries += other.entries
        failures += other.failures
    }
}
