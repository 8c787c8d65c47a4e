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

    /// The entries that could not be read, less those the format says to skip (RFC 7517 §5):
    /// a command that lists a file's entries exits 1 when there is any.
    public var failedEntries: [KeyEntryFailure] {
        failures.filter { !$0.isSkippedByRule }
    }

    /// Adds `other`'s entries and failures after these.
    mutating func append(_ other: KeyDecodingResult) {
        entries += other.entries
        failures += other.failures
    }
}
