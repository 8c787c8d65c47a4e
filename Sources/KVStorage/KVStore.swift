import CofferErrors
import CryptoOpenSSL
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A key-value store in the on-disk format of Tencent MMKV: `directory/id` (data) and
/// `directory/id.crc` (meta), readable by MMKV and able to read what MMKV writes.
///
/// An instance is safe to share between threads: every operation runs under one `Mutex`, with no
/// actor hop. Only one instance per (directory, id) may be open in a process at a time. With
/// ``KVStoreConfiguration/multiProcess`` several processes can share the files: reads take a
/// shared `flock` on the `.crc` file, writes an exclusive one, and each operation first picks up
/// other processes' changes.
///
/// Writes append to the mapped data file without `msync` (as MMKV does; a process crash loses
/// nothing, ``sync()`` makes them durable against power loss). Compaction, growth and re-keying
/// are crash-safe: a process killed at any point leaves files that open with every write that
/// returned before the kill (see `StoreCore+WriteBack.swift`).
public final class KVStore: Sendable {
    /// The configuration the store was opened with.
    public let configuration: KVStoreConfiguration
    /// Whether the store is open. Its lock is the one every operation runs under.
    private let state: Mutex<Bool>
    /// The open store's state, touched only inside `state.withLock` after checking that the store
    /// is open, so never by two threads at once (hence `nonisolated(unsafe)`). Kept beside the
    /// mutex rather than in it so that an operation borrows it, without a retain and a release.
    private nonisolated(unsafe) let core: StoreCore
    private let registryKey: String
    /// The streams of ``changes(forKey:pollInterval:)``.
    let observers = ChangeObservers()
    /// The shared flushes of ``KVStoreConfiguration/Durability/system``.
    let flusher = SyncFlusher()

    private static let openStores = Mutex<Set<String>>([])

    /// Opens (read-write: creating if needed) the store described by `configuration`.
    ///
    /// - Throws: ``KVStoreError`` — `alreadyOpen` when this process already has the store open,
    ///   `damaged` (per ``KVStoreConfiguration/onDamage``), `wrongCryptKey`, `undecodable`,
    ///   `notFound` (read-only, missing files), `systemCall`.
    public init(_ configuration: KVStoreConfiguration) throws(KVStoreError) {
        self.configuration = configuration
        let key = KVStore.canonicalPath(configuration.dataPath)
        let inserted = KVStore.openStores.withLock { $0.insert(key).inserted }
        guard inserted else {
            throw KVStoreError(.alreadyOpen, "the store is already open in this process", path: configuration.dataPath, operation: "open")
        }
        registryKey = key
        do {
            core = try StoreCore(configuration: configuration)
        } catch {
            _ = KVStore.openStores.withLock { $0.remove(key) }
            throw error
        }
        state = Mutex(true)
    }

    deinit {
        // Only an instance that is still open owns its registration (after close() another
        // instance may have registered the same path).
        if state.withLock({ $0 }) {
            let key = registryKey
            _ = KVStore.openStores.withLock { $0.remove(key) }
        }
    }

    /// Closes the store: unmaps and closes its files. Later calls throw `closed`. Idempotent.
    public func close() {
        let wasOpen = state.withLock { open -> Bool in
            guard open else { return false }
            open = false
            core.close()
            return true
        }
        guard wasOpen else { return }
        let key = registryKey
        _ = KVStore.openStores.withLock { $0.remove(key) }
        observers.finishAll()
    }

    /// Whether the store is still open.
    var isOpen: Bool { state.withLock { $0 } }

    /// Turns the recording of changes for observers on or off.
    func setRecordingChanges(_ on: Bool) {
        state.withLock { open in
            guard open else { return }
            core.recordChanges = on
            if !on { core.pendingChanges = [] }
        }
    }

    /// The error of an operation on a closed store.
    @inline(never)
    private func closedError() -> KVStoreError {
        KVStoreError(.closed, "the store is closed", path: configuration.dataPath)
    }

    private static func canonicalPath(_ path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let resolved = realpath(directory.isEmpty ? "/" : directory, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved) + "/" + name
    }

    // MARK: Locked access

    /// Runs `body` under the mutex and the shared inter-process lock, after picking up other
    /// processes' changes.
    @inline(__always)
    func read<R: Sendable>(_ body: (StoreCore) throws(KVStoreError) -> R) throws(KVStoreError) -> R {
        // Single process: nothing changes under a read, so there is nothing to deliver (the hot path).
        guard configuration.multiProcess else {
            return try state.withLock { (open: inout Bool) throws(KVStoreError) -> R in
                guard open else { throw closedError() }
                return try body(core)
            }
        }
        return try readSharingFiles(body)
    }

    /// ``read(_:)`` in multi-process mode: a shared `flock` and a lock release, and between them
    /// four loads from the meta mapping when no other process wrote (no other system call). A file
    /// truncated by another program is found by the fault guard
    /// (``StoreCore/guardingFaults(retry:_:)``), not by an `fstat` per read.
    @inline(__always)
    private func readSharingFiles<R: Sendable>(_ body: (StoreCore) throws(KVStoreError) -> R) throws(KVStoreError) -> R {
        // Optional, so that a read with no observer touches no array.
        var changes: [KVStoreChange]?
        defer { if let changes, !changes.isEmpty { observers.deliver(changes) } }
        return try state.withLock { (open: inout Bool) throws(KVStoreError) -> R in
            guard open else { throw closedError() }
            try core.lock.lock(.shared)
            defer { core.lock.unlock(.shared) }
            defer { if core.recordChanges { changes = core.takeChanges() } }
            return try core.guardingFaults(retry: true) { () throws(KVStoreError) -> R in
                try core.refreshFromOtherProcesses()
                return try body(core)
            }
        }
    }

    /// Runs `body` under the mutex and the exclusive inter-process lock, after picking up other
    /// processes' changes; then delivers the changes to observers and, with `.system` durability,
    /// waits for the flush.
    @inline(__always)
    func write<R: Sendable>(_ body: (StoreCore) throws(KVStoreError) -> R) throws(KVStoreError) -> R {
        guard !configuration.multiProcess && configuration.durability == .process else { return try writeDurably(body) }
        // The hot path: one process, no flush.
        let (result, changes) = try state.withLock { (open: inout Bool) throws(KVStoreError) -> (R, [KVStoreChange]) in
            guard open else { throw closedError() }
            guard core.writable else { throw core.readOnlyError("write") }
            try core.prepareForWrite()
            do throws(KVStoreError) {
                let result = try body(core)
                return (result, core.recordChanges ? core.takeChanges() : [])
            } catch {
                if core.recordChanges { observers.deliver(core.takeChanges()) }
                throw error
            }
        }
        if !changes.isEmpty { observers.deliver(changes) }
        return result
    }

    /// ``write(_:)`` in multi-process mode or with `.system` durability.
    private func writeDurably<R: Sendable>(_ body: (StoreCore) throws(KVStoreError) -> R) throws(KVStoreError) -> R {
        var changes: [KVStoreChange]?
        defer { if let changes, !changes.isEmpty { observers.deliver(changes) } }
        var ticket: UInt64 = 0
        let result = try state.withLock { (open: inout Bool) throws(KVStoreError) -> R in
            guard open else { throw closedError() }
            guard core.writable else { throw core.readOnlyError("write") }
            defer { if core.recordChanges { changes = core.takeChanges() } }
            guard core.multiProcess else {
                try core.prepareForWrite()
                let result = try body(core)
                if configuration.durability == .system { ticket = flusher.recordWrite() }
                return result
            }
            try core.lock.lock(.exclusive)
            defer { core.lock.unlock(.exclusive) }
            let result = try core.guardingFaults(retry: false) { () throws(KVStoreError) -> R in
                try core.refreshFromOtherProcesses()
                try core.prepareForWrite()
                return try body(core)
            }
            if configuration.durability == .system { ticket = flusher.recordWrite() }
            return result
        }
        if ticket > 0 {
            try flusher.waitUntilFlushed(ticket) { () throws(KVStoreError) in
                let target = try state.withLock { (open: inout Bool) throws(KVStoreError) in open ? try core.syncTarget() : nil }
                try target?.flush()
            }
        }
        return result
    }

    // MARK: Keys

    /// Whether `key` holds a live (unexpired) value.
    public func contains(_ key: String) throws(KVStoreError) -> Bool {
        try read { core throws(KVStoreError) in try core.withPayload(key) { _ in true } ?? false }
    }

    /// Every live key, in no particular order.
    public func allKeys() throws(KVStoreError) -> [String] {
        try read { $0.liveKeys() }
    }

    /// The number of live keys.
    public func count() throws(KVStoreError) -> Int {
        try read { $0.liveCount() }
    }

    /// Every live entry with its raw payload, in file order (for dump and export).
    public func entries() throws(KVStoreError) -> [KVStoreEntry] {
        try read { $0.liveEntries() }
    }

    /// The raw payload of `key` (without the expire trailer), or `nil` when absent or expired.
    public func rawValue(forKey key: String) throws(KVStoreError) -> [UInt8]? {
        try read { core throws(KVStoreError) in try core.withPayload(key) { Array($0) } }
    }

    /// The expire-at time of `key` in Unix seconds (0 = never), or `nil` when the key is absent or
    /// expiration is off.
    public func expireAt(forKey key: String) throws(KVStoreError) -> UInt32? {
        try read { core throws(KVStoreError) in
            try core.withPayload(key) { _ in true } == nil ? nil : core.expireAt(key)
        }
    }

    /// Stores a raw payload (as produced by ``KVStoreValueCodec``) under `key`.
    ///
    /// - Parameter expireAfter: Seconds until the value expires (0 = never); `nil` uses the
    ///   configuration's default. Requires expiration to be enabled.
    public func setRaw(_ payload: [UInt8], forKey key: String, expireAfter: UInt32? = nil) throws(KVStoreError) {
        try write { core throws(KVStoreError) in try core.setRawValue(payload, forKey: key, expireAfter: expireAfter) }
    }

    /// Removes `key` by appending a tombstone (nothing is written when the key is absent).
    public func remove(_ key: String) throws(KVStoreError) {
        try write { core throws(KVStoreError) in try core.removeValue(forKey: key) }
    }

    /// Removes several keys at once with a full write-back (no tombstones), as MMKV does.
    public func remove(_ keys: [String]) throws(KVStoreError) {
        if keys.count == 1 { return try remove(keys[0]) }
        try write { core throws(KVStoreError) in
            guard keys.contains(where: { core.entry(for: $0) != nil }) else { return }
            var plan = WriteBackPlan()
            plan.removeKeys = Set(keys)
            try core.writeBack(plan)
        }
    }

    /// Removes every key. The file shrinks to the initial capacity unless `keepSpace`.
    public func clearAll(keepSpace: Bool = false) throws(KVStoreError) {
        try write { core throws(KVStoreError) in
            var plan = WriteBackPlan()
            plan.removeAll = true
            plan.fixedFileSize = keepSpace ? core.data.size : max(Syscall.pageSize, core.configuration.initialCapacity)
            try core.writeBack(plan)
        }
    }

    // MARK: Maintenance

    /// Full write-back: drops superseded entries, tombstones and expired keys, keeping the file size.
    public func compact() throws(KVStoreError) {
        try write { core throws(KVStoreError) in try core.writeBack(WriteBackPlan()) }
    }

    /// Compacts, then shrinks the file to the smallest page multiple that holds the data.
    public func trim() throws(KVStoreError) {
        try write { core throws(KVStoreError) in
            var plan = WriteBackPlan()
            plan.trim = true
            try core.writeBack(plan)
        }
    }

    /// Makes every write so far durable: `msync(MS_SYNC)` of both files.
    public func sync() throws(KVStoreError) {
        try read { core throws(KVStoreError) in try core.sync() }
    }

    /// Re-encrypts the store under a new crypt key (fresh IV), adds encryption to a plain store,
    /// or removes it (`newKey` `nil` or empty). Crash-safe: after a kill the store opens with either
    /// the old or the new key, holding every acknowledged write.
    public func rekey(to newKey: SecureBytes?, cipher: KVStoreConfiguration.Cipher = .aes128) throws(KVStoreError) {
        try write { core throws(KVStoreError) in
            var plan = WriteBackPlan()
            plan.newCrypt = .some(KVStoreConfiguration.cryptSpec(newKey, cipher: cipher))
            try core.writeBack(plan)
        }
    }

    /// Turns on expiration: every existing value gets an expire-at trailer of now + `existingValues`
    /// seconds (0 = never). Values set later use their own duration or the configuration default.
    public func enableExpiration(existingValuesExpireAfter seconds: UInt32 = 0) throws(KVStoreError) {
        try write { core throws(KVStoreError) in
            guard !core.expiration else { return }
            var plan = WriteBackPlan()
            plan.newExpiration = true
            plan.expireAfterOnEnable = seconds
            try core.writeBack(plan)
        }
    }

    /// Turns off expiration, stripping the trailers (expired keys are dropped).
    public func disableExpiration() throws(KVStoreError) {
        try write { core throws(KVStoreError) in
            guard core.expiration else { return }
            var plan = WriteBackPlan()
            plan.newExpiration = false
            try core.writeBack(plan)
        }
    }

    /// Copies every live entry of `other` into this store (later values win); returns how many.
    /// Expire-at times are kept when both stores have expiration enabled.
    @discardableResult
    public func importEntries(from other: KVStore) throws(KVStoreError) -> Int {
        guard other !== self else { return 0 }
        let entries = try other.entries()
        return try importEntries(entries)
    }

    /// Appends `entries` (as returned by ``entries()``); returns how many were written.
    @discardableResult
    public func importEntries(_ entries: [KVStoreEntry]) throws(KVStoreError) -> Int {
        try write { core throws(KVStoreError) in
            var written = 0
            for entry in entries where !entry.payload.isEmpty {
                var expireAt: UInt32 = 0
                if core.expiration {
                    if let given = entry.expireAt { expireAt = given } else { expireAt = try core.expireAt(after: nil, key: entry.key) }
                }
                try core.append(key: entry.key, payloadCount: entry.payload.count, expireAt: expireAt) { target in
                    entry.payload.withUnsafeBytes { target.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                }
                written += 1
            }
            return written
        }
    }

    /// Writes a compacted copy of the store to `directory/id` and `directory/id.crc` (same crypt
    /// key), replacing any store there.
    public func backup(toDirectory directory: String) throws(KVStoreError) {
        let (entries, expiration) = try read { ($0.liveEntries(), $0.expiration) }
        var target = configuration
        target.directory = directory
        target.accessMode = .readWrite
        target.multiProcess = false
        target.onDamage = .discard
        guard KVStore.canonicalPath(target.dataPath) != registryKey else {
            throw KVStoreError(.invalidArgument, "the backup directory is the store's own directory", path: directory, operation: "backup")
        }
        try Syscall.makeDirectories(directory)
        try Syscall.unlink(target.dataPath)
        try Syscall.unlink(target.metaPath)
        try KVStore.writeCopy(entries, expiration: expiration, to: target)
    }

    /// Writes `entries` as a new, compacted store at `target`'s files (backup, salvage). A copy that
    /// cannot be written whole (a full disk) is removed, not left behind half made.
    static func writeCopy(_ entries: [KVStoreEntry], expiration: Bool, to target: KVStoreConfiguration) throws(KVStoreError) {
        do throws(KVStoreError) {
            let copy = try KVStore(target)
            defer { copy.close() }
            try copy.write { core throws(KVStoreError) in
                var plan = WriteBackPlan()
                plan.replacement = entries
                plan.newExpiration = expiration
                plan.trim = true
                try core.writeBack(plan)
            }
        } catch {
            try? Syscall.unlink(target.dataPath)
            try? Syscall.unlink(target.metaPath)
            throw error
        }
    }

    /// Replaces the store's contents with those of the backup in `directory` (same id and crypt
    /// key), crash-safely.
    public func restore(fromDirectory directory: String) throws(KVStoreError) {
        var source = configuration
        source.directory = directory
        source.accessMode = .readOnly
        source.multiProcess = false
        source.onDamage = .fail
        let backup = try KVStore(source)
        let (entries, expiration) = try backup.read { ($0.liveEntries(), $0.expiration) }
        backup.close()
        try write { core throws(KVStoreError) in
            var plan = WriteBackPlan()
            plan.replacement = entries
            plan.newExpiration = expiration
            try core.writeBack(plan)
        }
    }

    // MARK: Inspection

    /// Every entry of the store's log in file order, with its offset: live values, superseded
    /// values and tombstones (which stay in the file until compaction) and expired values, each
    /// marked with its ``KVStoreHistoryEntry/State``.
    public func history() throws(KVStoreError) -> [KVStoreHistoryEntry] {
        try read { core throws(KVStoreError) in try core.history() }
    }

    /// Sizes, entry counts, sequence, CRC state, encryption and expiration.
    public func statistics() throws(KVStoreError) -> KVStoreStatistics {
        try read { $0.statistics() }
    }

    /// Checks a store's files without changing them: opens it read-only with the `fail` damage
    /// policy and returns its statistics.
    ///
    /// - Throws: the precise reason the store does not load (`damaged` with a ``KVStoreDamage``,
    ///   `wrongCryptKey`, `undecodable`, `notFound`).
    public static func verify(_ configuration: KVStoreConfiguration) throws(KVStoreError) -> KVStoreStatistics {
        var readOnly = configuration
        readOnly.accessMode = .readOnly
        readOnly.onDamage = .fail
        let core = try StoreCore(configuration: readOnly)
        try core.lock.lock(.shared)
        defer { core.lock.unlock(.shared) }
        return core.statistics(recomputingCRC: false)
    }

    /// Every store in `directory` (MMKV's `specialCharacter/` MD5-named ones included), with its
    /// size, live keys, whether it looks encrypted (guessed without the key) and whether expiration
    /// is on. Each store is loaded read-only; a store that does not load is listed with its problem.
    ///
    /// - Throws: `systemCall` when the directory cannot be read (a missing one holds no stores).
    public static func list(directory: String) throws(KVStoreError) -> [KVStoreListing] {
        try StoreDirectoryScanner.list(directory)
    }

    /// Writes what can be recovered from a damaged store as a new, valid store in `directory`
    /// (same id and crypt key), leaving the damaged files exactly as they are.
    ///
    /// When the CRC matches, every entry is kept as it is. Otherwise nothing is intact by
    /// assertion: each entry is checked against the shapes MMKV writes (a printable UTF-8 key; a
    /// varint, 4 or 8 bytes, or a length-prefixed string as the value), entries whose lengths came
    /// from damaged bytes and swallow their successors are dropped, the scan resynchronises past
    /// damage (entries found there are marked ``KVStoreSalvageReport/Entry/afterDamage``), and
    /// entries it cannot confirm are kept but named in ``KVStoreSalvageReport/uncertainKeys``. The
    /// last value of each key wins, tombstones delete, expired values are left out.
    /// ``KVStoreSalvageReport/isComplete`` says whether anything was lost or is uncertain. Works on
    /// sound stores too (the copy is then a compacted one).
    ///
    /// - Throws: `notFound` when the store does not exist, `damaged` when its data file is shorter
    ///   than its header, `invalidArgument` when `directory` already holds a store of that id.
    public static func salvage(_ configuration: KVStoreConfiguration, toDirectory directory: String) throws(KVStoreError) -> KVStoreSalvageReport {
        try StoreSalvager.salvage(configuration, toDirectory: directory)
    }

    /// Whether values carry expire-at trailers (expiration is enabled on the store).
    public func isExpirationEnabled() throws(KVStoreError) -> Bool {
        try read { $0.expiration }
    }

    /// How many times this instance loaded its files and how many CRC passes over the data region
    /// it made (for tests: one open is one load and one CRC pass).
    func loadCounters() throws(KVStoreError) -> (loads: Int, crcPasses: Int) {
        try state.withLock { (open: inout Bool) throws(KVStoreError) -> (loads: Int, crcPasses: Int) in
            guard open else { throw closedError() }
            return (core.loads, core.crcPasses)
        }
    }
}
