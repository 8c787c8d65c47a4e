import ASN1Kit
import CryptoOpenSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import KVStorage
import Synchronization

/// The pipeline's HTTP cache: responses kept in a ``KVStore`` (MMKV format), keyed by a hash of the
/// request identity (``RequestIdentity/cacheKey``), with an in-process memory tier in front.
///
/// What is stored is the body as it arrived (still encrypted, decrypted again on every hit) or the
/// decrypted result, as each request's ``CachePolicy`` says. Give the store a crypt key to keep
/// decrypted results encrypted at rest.
///
/// **Freshness** follows RFC 9111 for a private cache (see <doc:HTTPCache>): `max-age`, `Expires`, `Age` and `Date`, a heuristic for `Last-Modified`;
/// `no-store` responses are never stored, `no-cache` ones are revalidated before each use,
/// `private` ones are stored (this cache serves one user), `s-maxage` is ignored, `Vary` is
/// honoured (a request with other values of the named headers is a miss; `Vary: *` is never
/// stored). A request's TTL, version and key filter override or refine this.
///
/// **Limits**: ``limits`` bound the bytes and entries; past them the least recently used entries
/// go. ``trim(toSize:count:)``, ``removeExpired()``, ``remove(_:)`` and ``remove(url:)`` maintain
/// it by hand; ``lookup(_:)`` and ``entries(for:)`` say what is stored.
///
/// **Never in the way**: storing happens after the result is complete and a failure to store is
/// an event (`cacheStoreFailed`), not an error; a damaged entry is a miss.
///
/// Memory stays flat in the payload size: a body longer than ``inlineLimit`` is written to a file
/// in ``bodyDirectory`` (beside the store) as it arrives, and the store keeps the record that
/// names it; a hit streams the file. A store with a crypt key keeps every body inside the store
/// (encrypted), since the files are not encrypted.
///
/// Times come from ``now`` (inject a fake clock in tests).
public final class DownloadCache: Sendable {
    /// The underlying store.
    public let store: KVStore
    /// Bodies longer than this many bytes go to files beside the store.
    public let inlineLimit: Int
    /// Size and count bounds, and the memory tier's size.
    public let limits: CacheLimits
    /// The clock of freshness, expiry and last access.
    public let now: @Sendable () -> Date
    /// The memory tier.
    let memory: CacheMemoryTier
    private let index = Mutex(Index())

    /// What the cache knows of each entry without reading its record, by store key; kept in the
    /// store beside the record (key `mt.HASH`) so that opening a cache reads no body.
    ///
    /// Format: magic "CDM1" | size u64 | expiry i64 ms | last access i64 ms | key URL (the rest, UTF-8).
    struct IndexEntry {
        var size: Int
        var lastAccess: Date
        var keyURL: String
        var expiresAt: Date
        /// The access time is newer than the one stored (a memory-tier hit): written at ``close()``.
        var accessUnsaved = false

        static let magic: [UInt8] = Array("CDM1".utf8)

        init(size: Int, lastAccess: Date, keyURL: String, expiresAt: Date) {
            self.size = size
            self.lastAccess = lastAccess
            self.keyURL = keyURL
            self.expiresAt = expiresAt
        }

        init?(decoding bytes: [UInt8]) {
            guard bytes.count >= 28, bytes[0..<4].elementsEqual(Self.magic) else { return nil }
            func integer(_ offset: Int) -> Int64 {
                Int64(bitPattern: bytes[offset..<offset + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            }
            let size = integer(4)
            guard size >= 0, let url = String(bytes: bytes[28...], encoding: .utf8) else { return nil }
            self.size = Int(size)
            expiresAt = Date(timeIntervalSince1970: TimeInterval(integer(12)) / 1000)
            lastAccess = Date(timeIntervalSince1970: TimeInterval(integer(20)) / 1000)
            keyURL = url
        }

        func encoded() -> [UInt8] {
            func bytes(_ value: Int64) -> [UInt8] {
                (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(bitPattern: value) >> (8 * UInt64($0))) }
            }
            func milliseconds(_ date: Date) -> Int64 {
                let value = date.timeIntervalSince1970 * 1000
                return value.isFinite ? Int64(max(-9e15, min(9e15, value))) : 0
            }
            return Self.magic + bytes(Int64(size)) + bytes(milliseconds(expiresAt)) + bytes(milliseconds(lastAccess)) + Array(keyURL.utf8)
        }
    }

    struct Index {
        var loaded = false
        var entries: [String: IndexEntry] = [:]
    }

    /// Opens (creating if needed) the cache store `id` in `directory`.
    ///
    /// - Throws: ``DownloadError`` `file` when the store cannot be opened (damaged, wrong crypt key,
    ///   already open in this process, I/O).
    ///
    /// - Parameters:
    ///   - inlineLimit: The longest body kept inside the store (default 256 KiB).
    ///   - limits: Size and count bounds and the memory tier's size (default: no bounds, 8 MiB).
    ///   - now: The clock (default: the system's).
    public convenience init(directory: String, id: String = "coffer.download-cache", cryptKey: SecureBytes? = nil,
                            inlineLimit: Int = 256 * 1024, limits: CacheLimits = .unlimited,
                            now: @escaping @Sendable () -> Date = { Date() }) throws(DownloadError) {
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
        self.init(store: store, inlineLimit: inlineLimit, limits: limits, now: now)
    }

    /// Uses an open store.
    ///
    /// - Parameter inlineLimit: The longest body kept inside the store (default 256 KiB).
    public init(store: KVStore, inlineLimit: Int = 256 * 1024, limits: CacheLimits = .unlimited,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.inlineLimit = max(0, inlineLimit)
        self.limits = limits
        self.now = now
        memory = CacheMemoryTier(costLimit: limits.memoryBytes)
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

    /// The key of an entry's ``IndexEntry``.
    static func metaKey(for key: String) -> String {
        "mt." + key.dropFirst(3)
    }

    // MARK: - Reading

    /// The record cached under `key` (a ``storeKey(for:)``), from the memory tier or the store,
    /// marked as just used; `nil` also when the entry cannot be decoded, or its body file is
    /// missing or has another length.
    func record(forKey key: String) -> CacheRecord? {
        if let record = memory.record(for: key) {
            touch(key, save: false)
            return record
        }
        guard let record = storedRecord(forKey: key) else {
            // Damaged, or its body file went away: drop it so it stops counting.
            if withIndex({ $0.entries[key] != nil }) { remove(key: key) }
            return nil
        }
        memory.insert(record, for: key)
        touch(key, save: true)
        return record
    }

    /// The record in the store, without marking it used.
    private func storedRecord(forKey key: String) -> CacheRecord? {
        guard let bytes = try? store.rawValue(forKey: key), let record = CacheRecord(decoding: bytes) else { return nil }
        if case .file(let name, let length) = record.body {
            guard let path = path(ofBody: name), FileWriter.regularFileSize(path) == length else { return nil }
        }
        return record
    }

    /// The record cached for a request identity (see ``record(forKey:)``).
    func record(for identity: String) -> CacheRecord? {
        record(forKey: Self.storeKey(for: identity))
    }

    /// Records that `key` was used now; `save` writes the time to the store at once (else at
    /// ``close()``).
    private func touch(_ key: String, save: Bool) {
        let date = now()
        let entry = withIndex { index -> IndexEntry? in
            guard index.entries[key] != nil else { return nil }
            index.entries[key]?.lastAccess = date
            index.entries[key]?.accessUnsaved = !save
            return index.entries[key]
        }
        if save, let entry { saveMeta(entry, forKey: key) }
    }

    private func saveMeta(_ entry: IndexEntry, forKey key: String) {
        try? store.setRaw(entry.encoded(), forKey: Self.metaKey(for: key))
    }

    // MARK: - Writing

    /// Stores the response of a transfer with the body `writer` collected, under `identity`.
    ///
    /// - Returns: Why nothing was stored, or `nil` when it was. A failure never fails the download.
    func store(decrypted: Bool, response: DownloadResponse, body writer: CacheBodyWriter, identity: RequestIdentity,
               request: DownloadRequest, requestTime: Date, responseTime: Date) -> String? {
        let key = Self.storeKey(for: identity.cacheKey)
        guard let body = writer.commit(as: "\(key)-\(UInt64.random(in: 0...UInt64.max)).body") else {
            return writer.failureReason ?? "the cached copy could not be written"
        }
        let vary = Self.varyNames(of: response).map { (name: $0, value: CacheRecord.value(of: $0, in: request.headers)) }
        let record = CacheRecord(decrypted: decrypted, response: response, body: body, requestTime: requestTime,
                                 responseTime: responseTime, version: request.cachePolicy.version, ttl: request.cachePolicy.ttl,
                                 keyURL: identity.cacheURL, vary: vary)
        if let failure = put(record, forKey: key) {
            if case .file(let name, _) = body, let path = path(ofBody: name) { FileWriter.remove(path) }
            return failure
        }
        return nil
    }

    /// Why a response must not be stored (RFC 9111 §3), or `nil` when it may be.
    static func refusal(for response: DownloadResponse, request: DownloadRequest) -> String? {
        if CacheControl(headers: response.headers).noStore { return "the response says Cache-Control: no-store" }
        if CacheControl(headers: request.headers).noStore { return "the request says Cache-Control: no-store" }
        if varyNames(of: response).contains("*") { return "the response says Vary: *" }
        return nil
    }

    /// The header names `Vary` lists, lowercase.
    static func varyNames(of response: DownloadResponse) -> [String] {
        response.headers.filter { HTTPFieldText.namesEqual($0.name, "Vary") }
            .flatMap { $0.value.split(separator: ",") }
            .map { HTTPFieldText.trimmed($0).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// Freshens a stored response with a 304's headers (RFC 9111 §4.3.4): every header the 304
    /// carries replaces the stored ones of that name (except the framing ones), and the times
    /// become the revalidation's. Returns the freshened record (also when storing it failed).
    func freshen(_ record: CacheRecord, with notModified: DownloadResponse, identity: RequestIdentity, request: DownloadRequest,
                 requestTime: Date, responseTime: Date) -> (record: CacheRecord, failure: String?) {
        var updated = record
        let skipped = ["content-length", "content-range", "transfer-encoding", "content-encoding"]
        let replacing = notModified.headers.filter { header in !skipped.contains { HTTPFieldText.namesEqual($0, header.name) } }
        var headers = record.response.headers.filter { stored in !replacing.contains { HTTPFieldText.namesEqual($0.name, stored.name) } }
        headers += replacing
        updated.response.headers = headers
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        if let ttl = request.cachePolicy.ttl { updated.ttl = ttl }
        if let version = request.cachePolicy.version { updated.version = version }
        if CacheControl(headers: headers).noStore {
            remove(key: Self.storeKey(for: identity.cacheKey))
            return (updated, nil)
        }
        return (updated, put(updated, forKey: Self.storeKey(for: identity.cacheKey)))
    }

    /// Writes `record` under `key`, replacing (and removing the body file of) what was there, then
    /// applies the limits. Returns why it failed, or `nil`.
    private func put(_ record: CacheRecord, forKey key: String) -> String? {
        let previous = storedRecord(forKey: key)
        let bytes = record.encoded()
        do {
            try store.setRaw(bytes, forKey: key)
        } catch {
            return "cannot write the cache store: \(error)"
        }
        if case .file(let old, _) = previous?.body, record.body != previous?.body, let path = path(ofBody: old) {
            FileWriter.remove(path)
        }
        let date = now()
        memory.insert(record, for: key)
        let fileLength = if case .file(_, let length) = record.body { length } else { 0 }
        let entry = IndexEntry(size: bytes.count + fileLength, lastAccess: date, keyURL: record.keyURL,
                               expiresAt: record.freshness.expiry(ttl: record.ttl))
        withIndex { $0.entries[key] = entry }
        saveMeta(entry, forKey: key)
        applyLimits()
        return nil
    }

    /// Removes least recently used entries until the cache is within ``limits``.
    private func applyLimits() {
        guard limits.maximumBytes != nil || limits.maximumEntries != nil else { return }
        _ = try? trim(toSize: limits.maximumBytes, count: limits.maximumEntries)
    }

    // MARK: - Maintenance

    /// Removes the least recently used entries until at most `size` bytes and `count` entries are
    /// left (`nil`: no bound).
    ///
    /// - Returns: The entries removed.
    @discardableResult
    public func trim(toSize size: Int? = nil, count: Int? = nil) throws(DownloadError) -> Int {
        let victims = withIndex { index -> [String] in
            var bytes = index.entries.values.reduce(0) { $0 + $1.size }
            var left = index.entries.count
            var victims: [String] = []
            for (key, entry) in index.entries.sorted(by: { $0.value.lastAccess < $1.value.lastAccess }) {
                guard bytes > (size ?? Int.max) || left > (count ?? Int.max) else { break }
                victims.append(key)
                bytes -= entry.size
                left -= 1
            }
            return victims
        }
        try remove(keys: victims)
        return victims.count
    }

    /// Removes every entry that is no longer fresh (under the TTL it was stored with, else its
    /// headers). Stale entries are otherwise kept: they can still be revalidated with a 304, or
    /// serve offline and on error.
    ///
    /// - Returns: The entries removed.
    @discardableResult
    public func removeExpired() throws(DownloadError) -> Int {
        let date = now()
        let victims = withIndex { index in index.entries.filter { $0.value.expiresAt <= date }.map(\.key) }
        try remove(keys: victims)
        return victims.count
    }

    /// What the cache holds for `request` (as the downloader would key it with the request's own
    /// decryptor and response modifier; pass others when the downloader supplies them), or `nil`
    /// when nothing is stored or the stored entry would be a miss (another cache version, other
    /// values of the headers `Vary` names). Does not count as a use.
    public func lookup(_ request: DownloadRequest, decryptor: (any Decryptor)? = nil, responseModifier: ResponseModifier? = nil,
                       ignoredHeaders: Set<String> = RequestIdentity.defaultIgnoredHeaders) -> CacheEntry? {
        let identity = RequestIdentity(request: request, decryptor: decryptor ?? request.decryptor,
                                       responseModifier: responseModifier ?? request.responseModifier, ignoredHeaders: ignoredHeaders)
        let key = Self.storeKey(for: identity.cacheKey)
        guard let record = memory.record(for: key) ?? storedRecord(forKey: key), record.version == request.cachePolicy.version,
              record.varyMatches(request.headers) else { return nil }
        return entry(record, key: key)
    }

    /// Every entry stored for `url` (any headers, decryptor or version), least recently used first.
    public func entries(for url: URL) -> [CacheEntry] {
        let normalized = RequestIdentity.normalizedURL(url)
        let keys = withIndex { index in
            index.entries.filter { $0.value.keyURL == normalized }.sorted { $0.value.lastAccess < $1.value.lastAccess }.map(\.key)
        }
        return keys.compactMap { key in storedRecord(forKey: key).map { entry($0, key: key) } }
    }

    /// Removes the entry `request` would use (see ``lookup(_:decryptor:responseModifier:ignoredHeaders:)``).
    ///
    /// - Returns: Whether there was one.
    @discardableResult
    public func remove(_ request: DownloadRequest, decryptor: (any Decryptor)? = nil, responseModifier: ResponseModifier? = nil,
                       ignoredHeaders: Set<String> = RequestIdentity.defaultIgnoredHeaders) throws(DownloadError) -> Bool {
        let identity = RequestIdentity(request: request, decryptor: decryptor ?? request.decryptor,
                                       responseModifier: responseModifier ?? request.responseModifier, ignoredHeaders: ignoredHeaders)
        let key = Self.storeKey(for: identity.cacheKey)
        let present = withIndex { $0.entries[key] != nil }
        try remove(keys: [key])
        return present
    }

    /// Removes every entry stored for `url`.
    ///
    /// - Returns: The entries removed.
    @discardableResult
    public func remove(url: URL) throws(DownloadError) -> Int {
        let normalized = RequestIdentity.normalizedURL(url)
        let victims = withIndex { index in index.entries.filter { $0.value.keyURL == normalized }.map(\.key) }
        try remove(keys: victims)
        return victims.count
    }

    /// Entries, bytes and expired entries now.
    public func statistics() -> CacheStatistics {
        let date = now()
        let (entries, bytes, expired) = withIndex { index in
            (index.entries.count, index.entries.values.reduce(0) { $0 + $1.size }, index.entries.values.filter { $0.expiresAt <= date }.count)
        }
        let usage = memory.usage
        return CacheStatistics(entries: entries, bytes: bytes, expired: expired, memoryEntries: usage.count, memoryBytes: usage.cost)
    }

    /// The number of cached entries.
    public func count() throws -> Int {
        withIndex { $0.entries.count }
    }

    /// Removes every cached entry and its body file.
    public func removeAll() throws {
        try store.clearAll()
        memory.removeAll()
        withIndex { $0.entries = [:] }
        if let bodyDirectory, FileManager.default.fileExists(atPath: bodyDirectory) {
            for name in try FileManager.default.contentsOfDirectory(atPath: bodyDirectory) where name.hasSuffix(".body") {
                FileWriter.remove(bodyDirectory + "/" + name)
            }
        }
    }

    /// Saves the access times of memory-tier hits and closes the store.
    public func close() {
        let unsaved = withIndex { index -> [(String, IndexEntry)] in
            let entries = index.entries.filter(\.value.accessUnsaved)
            for key in entries.keys { index.entries[key]?.accessUnsaved = false }
            return entries.map { ($0.key, $0.value) }
        }
        for (key, entry) in unsaved { saveMeta(entry, forKey: key) }
        store.close()
    }

    // MARK: - Index

    /// Runs `body` on the index, loading it from the store first if needed.
    private func withIndex<T>(_ body: (inout Index) -> T) -> T {
        index.withLock { index in
            if !index.loaded {
                index.loaded = true
                index.entries = loadIndex()
            }
            return body(&index)
        }
    }

    /// Reads every entry's ``IndexEntry`` (or, for a record without one, the record itself). An
    /// entry that cannot be used (undecodable, body file missing) and a stray index entry are removed.
    private func loadIndex() -> [String: IndexEntry] {
        var entries: [String: IndexEntry] = [:]
        var broken: [String] = []
        let keys = (try? store.allKeys()) ?? []
        let records = Set(keys.filter { $0.hasPrefix("dl.") })
        for key in keys where key.hasPrefix("mt.") && !records.contains("dl." + key.dropFirst(3)) {
            try? store.remove(key)
        }
        for key in records {
            if let meta = (try? store.rawValue(forKey: Self.metaKey(for: key))).flatMap({ $0 }).flatMap(IndexEntry.init(decoding:)) {
                entries[key] = meta
                continue
            }
            guard let bytes = try? store.rawValue(forKey: key), let record = CacheRecord(decoding: bytes) else {
                broken.append(key)
                continue
            }
            var fileLength = 0
            if case .file(let name, let length) = record.body {
                guard let path = path(ofBody: name), FileWriter.regularFileSize(path) == length else {
                    broken.append(key)
                    continue
                }
                fileLength = length
            }
            let entry = IndexEntry(size: bytes.count + fileLength, lastAccess: record.responseTime, keyURL: record.keyURL,
                                   expiresAt: record.freshness.expiry(ttl: record.ttl))
            entries[key] = entry
            saveMeta(entry, forKey: key)
        }
        for key in broken {
            try? store.remove([key, Self.metaKey(for: key)])
        }
        return entries
    }

    /// Removes the entries `keys`: records, access times, body files and memory copies.
    private func remove(keys: [String]) throws(DownloadError) {
        guard !keys.isEmpty else { return }
        let records = keys.map { storedRecord(forKey: $0) }
        do {
            try store.remove(keys + keys.map(Self.metaKey(for:)))
        } catch {
            var failure = DownloadError.file(store.configuration.directory, "cannot remove cache entries: \(error)")
            failure.cause = error
            throw failure
        }
        for (key, record) in zip(keys, records) {
            memory.remove(key)
            if case .file(let name, _) = record?.body, let path = path(ofBody: name) { FileWriter.remove(path) }
        }
        withIndex { index in
            for key in keys { index.entries[key] = nil }
        }
    }

    /// Removes one entry, ignoring failures.
    private func remove(key: String) {
        try? remove(keys: [key])
    }

    private func entry(_ record: CacheRecord, key: String) -> CacheEntry {
        let known = withIndex { $0.entries[key] }
        let fileLength = if case .file(_, let length) = record.body { length } else { 0 }
        return CacheEntry(keyURL: record.keyURL, url: record.response.url, status: record.response.status, headers: record.response.headers,
                          bodyLength: record.body.length, size: known?.size ?? (record.encoded().count + fileLength),
                          isDecrypted: record.decrypted, storedAt: record.responseTime, expiresAt: record.freshness.expiry(ttl: record.ttl),
                          lastAccess: known?.lastAccess ?? record.responseTime, version: record.version)
    }
}
