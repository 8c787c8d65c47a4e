import ASN1Kit
import CryptoOpenSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import KVStorage

/// The pipeline's cache: results kept in a ``KVStore`` (MMKV format), keyed by a hash of the
/// request identity, with the response's `ETag` / `Last-Modified` for revalidation.
///
/// What is stored is the body as it arrived (still encrypted, decrypted again on every hit) or the
/// decrypted result, as each request's ``CachePolicy`` says. Give the store a crypt key to keep
/// decrypted results encrypted at rest.
///
/// Memory stays flat in the payload size: a body longer than ``inlineLimit`` is written to a file
/// in ``bodyDirectory`` (beside the store) as it arrives, and the store keeps the record that
/// names it; a hit streams the file. A store with a crypt key keeps every body inside the store
/// (encrypted), since the files are not encrypted.
public final class DownloadCache: Sendable {
    /// The underlying store.
    public let store: KVStore
    /// Bodies longer than this many bytes go to files beside the store.
    public let inlineLimit: Int

    /// Opens (creating if needed) the cache store `id` in `directory`.
    ///
    /// - Throws: ``DownloadError`` `file` when the store cannot be opened (damaged, wrong crypt key,
    ///   already open in this process, I/O).
    ///
    /// - Parameter inlineLimit: The longest body kept inside the store (default 256 KiB).
    public convenience init(directory: String, id: String = "coffer.download-cache", cryptKey: SecureBytes? = nil,
                            inlineLimit: Int = 256 * 1024) throws(DownloadError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            var failure = DownloadError.file(directory, "cannot create the cache directory")
            failure.cause = error
            throw failure
        }
        let store: KVStore
        do {
            store = try KVStore(KVStoreConfiguration(directory: directory, id: id, cryptKey: cryptKey))
        } catch {
            var failure = DownloadError.file(directory, "cannot open the cache: \(error.description)")
            failure.cause = error
            throw failure
        }
        self.init(store: store, inlineLimit: inlineLimit)
    }

    /// Uses an open store.
    ///
    /// - Parameter inlineLimit: The longest body kept inside the store (default 256 KiB).
    public init(store: KVStore, inlineLimit: Int = 256 * 1024) {
        self.store = store
        self.inlineLimit = max(0, inlineLimit)
    }

    /// Where large bodies are kept: `ID.bodies` in the store's directory; `nil` for a store with a
    /// crypt key (every body stays in the store, encrypted).
    public var bodyDirectory: String? {
        guard store.configuration.cryptKey == nil else { return nil }
        return store.configuration.directory + "/" + store.configuration.id + ".bodies"
    }

    /// A writer for the body of a transfer that will be cached.
    func makeBodyWriter() -> CacheBodyWriter {
        CacheBodyWriter(directory: bodyDirectory, inlineLimit: inlineLimit)
    }

    /// The path of a body file.
    func path(ofBody name: String) -> String? {
        bodyDirectory.map { $0 + "/" + name }
    }

    /// The store key for a request identity: `dl.` and the SHA-256 of the identity in hex (so no
    /// header value is stored in clear as a key).
    static func storeKey(for identity: String) -> String {
        let digest = Digest.hash(.sha256, Array(identity.utf8))
        return "dl." + Hex.encode(digest)
    }

    /// The record cached for `identity`, or `nil` (also when the entry cannot be decoded, or its
    /// body file is missing or has another length).
    func record(for identity: String) -> CacheRecord? {
        guard let bytes = try? store.rawValue(forKey: Self.storeKey(for: identity)), let record = CacheRecord(decoding: bytes) else {
            return nil
        }
        if case .file(let name, let length) = record.body {
            guard let path = path(ofBody: name), FileWriter.regularFileSize(path) == length else { return nil }
        }
        return record
    }

    /// Stores the record of `response` with the body `writer` collected, for `identity`, and
    /// removes the body file of the record it replaces. A failure to store never fails the
    /// download.
    func store(decrypted: Bool, response: DownloadResponse, body writer: CacheBodyWriter, for identity: String) {
        let key = Self.storeKey(for: identity)
        guard let body = writer.commit(as: "\(key)-\(UInt64.random(in: 0...UInt64.max)).body") else { return }
        let previous = (try? store.rawValue(forKey: key)).flatMap(CacheRecord.init(decoding:))
        do {
            try store.setRaw(CacheRecord(decrypted: decrypted, response: response, body: body).encoded(), forKey: key)
        } catch {
            if case .file(let name, _) = body, let path = path(ofBody: name) { FileWriter.remove(path) }
            return
        }
        if case .file(let name, _) = previous?.body, let path = path(ofBody: name) { FileWriter.remove(path) }
    }

    /// The number of cached entries.
    public func count() throws -> Int {
        try store.count()
    }

    /// Removes every cached entry and its body file.
    public func removeAll() throws {
        try store.clearAll()
        if let bodyDirectory, FileManager.default.fileExists(atPath: bodyDirectory) {
            for name in try FileManager.default.contentsOfDirectory(atPath: bodyDirectory) where name.hasSuffix(".body") {
                FileWriter.remove(bodyDirectory + "/" + name)
            }
        }
    }

    /// Closes the store.
    public func close() {
        store.close()
    }
}
