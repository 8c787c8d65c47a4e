import CryptoOpenSSL
import Foundation
import KVStorage

/// The pipeline's cache: results kept in a ``KVStore`` (MMKV format), keyed by a hash of the
/// request identity, with the response's `ETag` / `Last-Modified` for revalidation.
///
/// What is stored is the body as it arrived (still encrypted, decrypted again on every hit) or the
/// decrypted result, as each request's ``CachePolicy`` says. Give the store a crypt key to keep
/// decrypted results encrypted at rest.
public final class DownloadCache: Sendable {
    /// The underlying store.
    public let store: KVStore

    /// Opens (creating if needed) the cache store `id` in `directory`.
    ///
    /// - Throws: ``DownloadError`` `file` when the store cannot be opened (damaged, wrong crypt key,
    ///   already open in this process, I/O).
    public convenience init(directory: String, id: String = "coffer.download-cache", cryptKey: [UInt8]? = nil) throws(DownloadError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw DownloadError.file(directory, "cannot create the cache directory")
        }
        let store: KVStore
        do {
            store = try KVStore(KVStoreConfiguration(directory: directory, id: id, cryptKey: cryptKey))
        } catch {
            var failure = DownloadError.file(directory, "cannot open the cache: \(error.description)")
            failure.cause = error
            throw failure
        }
        self.init(store: store)
    }

    /// Uses an open store.
    public init(store: KVStore) {
        self.store = store
    }

    /// The store key for a request identity: `dl.` and the SHA-256 of the identity in hex (so no
    /// header value is stored in clear as a key).
    static func storeKey(for identity: String) -> String {
        let digest = Digest.hash(.sha256, Array(identity.utf8))
        return "dl." + digest.map { String(format: "%02x", $0) }.joined()
    }

    /// The record cached for `identity`, or `nil` (also when the entry cannot be decoded).
    func record(for identity: String) -> CacheRecord? {
        guard let bytes = try? store.rawValue(forKey: Self.storeKey(for: identity)) else { return nil }
        return CacheRecord(decoding: bytes)
    }

    /// Stores `record` for `identity`. A failure to store never fails the download.
    func store(_ record: CacheRecord, for identity: String) {
        try? store.setRaw(record.encoded(), forKey: Self.storeKey(for: identity))
    }

    /// The number of cached entries.
    public func count() throws -> Int {
        try store.count()
    }

    /// Removes every cached entry.
    public func removeAll() throws {
        try store.clearAll()
    }

    /// Closes the store.
    public func close() {
        store.close()
    }
}
