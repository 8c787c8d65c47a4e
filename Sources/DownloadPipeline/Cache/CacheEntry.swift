#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the cache holds for one request: the stored response's metadata (never its body).
public struct CacheEntry: Sendable {
    /// The URL that keyed the entry (normalized, after the ``CacheKeyFilter``).
    public var keyURL: String
    /// The response's final URL (after redirects).
    public var url: URL
    /// The HTTP status stored.
    public var status: Int
    /// The response headers stored.
    public var headers: [(name: String, value: String)]
    /// The body's length as stored (encrypted or decrypted, see ``isDecrypted``).
    public var bodyLength: Int
    /// What the entry costs against ``CacheLimits/maximumBytes``: the record and its body file.
    public var size: Int
    /// Whether the stored body is the decrypted result.
    public var isDecrypted: Bool
    /// When the response came in (or was last confirmed with a 304).
    public var storedAt: Date
    /// When it stops being fresh (under the TTL it was stored with, else the response's headers).
    public var expiresAt: Date
    /// When it was last used (stored or served).
    public var lastAccess: Date
    /// The ``CachePolicy/version`` it was stored under.
    public var version: String?

    /// Whether the entry is fresh at `date`.
    public func isFresh(at date: Date) -> Bool { date < expiresAt }
}
