import CMappingGuard
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

/// The state of one open store. Only ever touched under the owning ``KVStore``'s mutex, so it needs
/// no synchronisation of its own; it is a class so the mutex can hold it and methods can mutate it
/// in place.
final class StoreCore {
    let configuration: KVStoreConfiguration
    let dataPath: String
    let metaPath: String
    let directory: String
    let writable: Bool
    /// Whether other processes share the files (locking and change detection on every access).
    let multiProcess: Bool

    // The properties a read touches skip the runtime exclusivity check: a StoreCore is only ever
    // used under its KVStore's mutex, so no two accesses can overlap (the checks cost a third of a get).
    @exclusivity(unchecked) var data: MappedFile
    @exclusivity(unchecked) var meta: MappedFile
    /// The meta mapping for writes (read-write mode only). The meta file never changes size.
    var metaPointer: UnsafeMutableRawPointer?
    // The shared path's state (lock, change check) skips the check too: without it a shared get
    // paid five dynamic access checks, a quarter of its instructions.
    @exclusivity(unchecked) var lock: FileLock

    var crypt: CryptSpec?
    /// The CFB stream positioned at the end of the data region (encrypted stores).
    var cipher: AESCFBStream?
    /// The decrypted data region (encrypted stores), addressed by data-file offsets.
    @exclusivity(unchecked) var plaintext: PlaintextBuffer?

    var actualSize = 0
    var crc: UInt32 = 0
    var sequence: UInt32 = 0
    var iv = [UInt8](repeating: 0, count: 16)
    @exclusivity(unchecked) var expiration = false
    @exclusivity(unchecked) var index = StoreIndex()

    /// The meta values last seen in (or written to) the file, for detecting other processes' writes.
    @exclusivity(unchecked) var knownSequence: UInt32 = 0
    @exclusivity(unchecked) var knownCRC: UInt32 = 0
    @exclusivity(unchecked) var knownSize = 0
    /// A repair adopted under a shared lock that still has to be written to the meta file.
    @exclusivity(unchecked) var pendingRepair = false
    /// The last (re)load failed part-way (the files were damaged or cut short under the store):
    /// the mappings and the index may disagree, so the next operation loads again.
    @exclusivity(unchecked) var loadFailed = false
    /// The file of the last mapping the fault guard answered a fault in (set only then).
    private var lastCutFile: String?
    /// Whether the meta struct's bytes hold data (not a hole) and may be read through the mapping.
    @exclusivity(unchecked) var metaReadable = false

    /// How many times the files were loaded, and how many CRC passes over the data region that
    /// took (including the one of ``statistics(recomputingCRC:)``): what tests check to keep an
    /// open at one load and one CRC pass.
    private(set) var loads = 0
    var crcPasses = 0

    /// The data file's status-change time when ``checkDataInPlace()`` last found its region sound.
    var checkedDataChangeTime: Duration?

    /// Whether changes are recorded for observers (``KVStore/changes(forKey:pollInterval:)``).
    @exclusivity(unchecked) var recordChanges = false
    /// Changes made or noticed since the owner last took them (only while `recordChanges`).
    var pendingChanges: [KVStoreChange] = []

    /// The recorded changes, emptying the record.
    func takeChanges() -> [KVStoreChange] {
        defer { pendingChanges = [] }
        return pendingChanges
    }

    var now: UInt32 { configuration.clock() }

    init(configuration: KVStoreConfiguration) throws(KVStoreError) {
        self.configuration = configuration
        dataPath = configuration.dataPath
        metaPath = configuration.metaPath
        directory = String(dataPath[..<(dataPath.lastIndex(of: "/") ?? dataPath.startIndex)])
        writable = configuration.accessMode == .readWrite
        multiProcess = configuration.multiProcess
        crypt = configuration.cryptSpec
        if writable { try Syscall.makeDirectories(directory.isEmpty ? "." : directory) }
        // Both files are mapped as they are and grown to whole pages only after they loaded (see
        // `reload`), so a store refused as damaged is left exactly as it was, without a second load.
        let createdData = writable && !Syscall.exists(dataPath)
        let createdMeta = writable && !Syscall.exists(metaPath)
        data = try MappedFile(path: dataPath, writable: writable, minimumSize: 0, guarded: multiProcess)
        var metaFile: MappedFile
        if writable {
            metaFile = try MappedFile(path: metaPath, writable: true, minimumSize: 0, guarded: multiProcess)
        } else {
            do throws(KVStoreError) {
                metaFile = try MappedFile(path: metaPath, writable: false, minimumSize: 0, guarded: multiProcess)
            } catch where error.code == .notFound {
                metaFile = MappedFile(absentPath: configuration.metaPath)
            }
        }
        metaPointer = nil
        let metaDescriptor = metaFile.descriptor
        meta = metaFile
        try OwnershipLock.acquire(descriptor: metaDescriptor, exclusive: writable && !multiProcess, path: metaPath)
        lock = FileLock(descriptor: metaDescriptor, path: configuration.metaPath, enabled: configuration.multiProcess && metaDescriptor >= 0)
        try lock.lock(writable ? .exclusive : .shared)
        defer { lock.unlock(writable ? .exclusive : .shared) }
        if writable { try Syscall.unlink(dataPath + StoreCore.compactSuffix) }
        do throws(KVStoreError) {
            // Another process may have replaced the data file (write-back rename) between opening
            // it above and taking the lock: reopen it under the lock.
            try reload(remap: configuration.multiProcess)
        } catch {
            // A refused open leaves no file behind that was not there before. Shared, the files
            // may have been created by another process at the same moment, and hold its
            // acknowledged writes by now (or be open there): they are never removed.
            if !multiProcess {
                if createdData { try? Syscall.unlink(dataPath) }
                if createdMeta { try? Syscall.unlink(metaPath) }
            }
            throw error
        }
    }

    /// Grows the files of a read-write store that just loaded to their working sizes: the data file
    /// to a page multiple of at least the initial capacity, the meta file to one page. Growing only
    /// appends zeros, which every reader ignores.
    ///
    /// The meta page's blocks are reserved here and the data file's before each write reaches them
    /// (``ensureWritable(upTo:)``), so that no write through the mappings can fault with `SIGBUS`
    /// on a full disk. When the file system has no room the store still opens, readable, and every
    /// write fails with `noSpace` until space returns.
    private func growLoadedFiles() throws(KVStoreError) {
        let page = Syscall.pageSize
        let minimum = max(page, configuration.initialCapacity)
        do throws(KVStoreError) {
            if meta.size < page { try meta.grow(to: page) }
            if data.size < minimum || data.size % page != 0 {
                try data.grow(to: max(minimum, data.size))
            }
            try meta.reserve(upTo: page)
        } catch where error.code == .noSpace {
            // Opened readable; writes try again.
        }
        metaPointer = meta.allocatedSize >= MetaInfo.size ? meta.base : nil
    }

    /// Reserves the blocks every write up to data-file offset `end` touches, and the meta file's,
    /// before anything is written: the write fails with `noSpace` instead of a `SIGBUS`.
    @inline(never)
    func ensureWritable(upTo end: Int) throws(KVStoreError) {
        guard writable else { throw readOnlyError("write") }
        if meta.allocatedSize < MetaInfo.size {
            if meta.size < Syscall.pageSize { try meta.grow(to: Syscall.pageSize) }
            try meta.reserve(upTo: Syscall.pageSize)
            metaPointer = meta.base
        }
        if end > data.allocatedSize {
            // Reserving extends a file that is shorter than the range: a data file cut short by
            // another program would be silently filled with zeros (a shared store's only other
            // check, the fault guard, sees no fault then). Rare: reservations go in large steps.
            if multiProcess { try checkDataNotCutShort() }
            if end > data.size {
                try data.grow(to: end)
                plaintext?.reserve(data.size)
            }
            try data.reserve(upTo: end)
        }
    }

    /// Fails with `damaged` when the data file is shorter than its mapping: another program cut
    /// it (this store's processes and MMKV's only shrink a file after a new sequence, which
    /// ``refreshFromOtherProcesses()`` has already reloaded). The next operation reloads.
    private func checkDataNotCutShort() throws(KVStoreError) {
        let current = try data.currentFileSize()
        guard current < data.size else { return }
        loadFailed = true
        throw cutShortError(dataPath, "\(current) bytes are left of the \(data.size) mapped", dataFileSize: current)
    }

    // MARK: Meta access

    /// The meta struct as the file holds it; a meta file whose first page was never written (a hole)
    /// reads as zeros without touching the hole. Notes whether the struct's bytes hold data.
    func readMeta() -> MetaInfo {
        let bytes = meta.readableBytes
        metaReadable = bytes.count >= MetaInfo.size
        return MetaInfo(bytes: bytes)
    }

    /// The current meta struct as this instance believes it should be.
    func currentMetaInfo() -> MetaInfo {
        var info = MetaInfo()
        info.crc = crc
        info.version = MetaInfo.currentVersion
        info.sequence = sequence
        info.iv = iv
        info.actualSize = UInt32(actualSize)
        info.lastConfirmedSize = UInt32(actualSize)
        info.lastConfirmedCRC = crc
        info.flags = expiration ? MetaInfo.expireFlag : 0
        return info
    }

    /// Writes the whole meta struct (MMKV's `IncreaseSequence` write), with the header first.
    func writeFullMeta(_ info: MetaInfo, sync: Bool) throws(KVStoreError) {
        try ensureWritable(upTo: 4)
        guard let metaPointer, let dataBase = data.base else { throw readOnlyError("write meta") }
        dataBase.storeBytes(of: info.actualSize.littleEndian, as: UInt32.self)
        atomicMemoryFence(ordering: .releasing)
        info.store(to: metaPointer)
        atomicMemoryFence(ordering: .releasing)
        knownSequence = info.sequence
        knownCRC = info.crc
        knownSize = Int(info.actualSize)
        if sync { try meta.sync() }
    }

    func readOnlyError(_ operation: String) -> KVStoreError {
        KVStoreError(.readOnly, "the store is open read-only", path: dataPath, operation: operation)
    }

    // MARK: Loading

    /// Loads (or reloads) the store from its files; with `remap`, reopens the data file by path
    /// first (another process may have replaced it by a write-back).
    func reload(remap: Bool) throws(KVStoreError) {
        loadFailed = true
        if remap {
            data = try MappedFile(path: dataPath, writable: writable, minimumSize: 0, guarded: multiProcess)
            // The meta file is read through the size it had when mapped: a store that another
            // process created and wrote between this one's open and its lock would read as a
            // data region with an all-zero meta (CRC 0), and be refused as damaged.
            if !meta.isAbsent, try meta.refreshSize() { metaPointer = nil }
        }
        let info = readMeta()
        let loaded = try StoreLoader.load(
            data: data.readableBytes, fileSize: data.size, meta: info, crypt: crypt, policy: configuration.onDamage,
            path: dataPath)
        loads += 1
        crcPasses += loaded.crcPasses
        if writable { try growLoadedFiles() }
        let repair = loaded.repair
        adopt(loaded, meta: info)
        knownSequence = info.sequence
        knownCRC = info.crc
        knownSize = Int(info.actualSize)
        pendingRepair = false
        loadFailed = false
        switch repair {
        case .none:
            if info.hasPendingCommit && writable && lock.holdsExclusiveOrDisabled {
                try writeFullMeta(currentMetaInfo(), sync: true)
            }
        case .adoptedConsistentState:
            if writable && lock.holdsExclusiveOrDisabled {
                sequence &+= 1
                try writeFullMeta(currentMetaInfo(), sync: true)
            } else {
                pendingRepair = writable
            }
        case .rewrite:
            if writable && lock.holdsExclusiveOrDisabled {
                try writeBack(WriteBackPlan())
            } else {
                pendingRepair = writable
            }
        }
    }

    private func adopt(_ loaded: consuming LoadedState, meta info: MetaInfo) {
        actualSize = loaded.actualSize
        crc = loaded.crc
        iv = loaded.iv
        expiration = loaded.expiration
        index = loaded.index
        cipher = loaded.cipher
        sequence = info.sequence
        if crypt != nil {
            let buffer = loaded.plaintext ?? PlaintextBuffer(capacity: data.size)
            buffer.reserve(data.size)
            plaintext = buffer
        } else {
            plaintext = nil
        }
    }

    /// Before every operation in multi-process mode: notices other processes' writes through the
    /// meta's sequence, CRC and size (MMKV's `checkLoadData`) and reloads what changed.
    ///
    /// A file cut short under its mapping by another program is found by the fault guard: touching
    /// a page past the file's end reads zeros instead of raising `SIGBUS`, and
    /// ``guardingFaults(retry:_:)`` then reloads from what is left, which the damage policy judges.
    /// A mapping the guard could not cover has its file's size checked here instead (two `fstat`s,
    /// which would double the cost of a get).
    func refreshFromOtherProcesses() throws(KVStoreError) {
        guard configuration.multiProcess else { return }
        if loadFailed {
            try reloadWithNewMappings()
            if recordChanges { pendingChanges.append(KVStoreChange(key: nil, kind: .reloaded, byOtherProcess: true)) }
            return
        }
        if !(data.isCovered && meta.isCovered) {
            let dataShrank = try data.currentFileSize() < data.size
            var metaShrank = false
            if !meta.isAbsent { metaShrank = try meta.currentFileSize() < meta.size }
            if dataShrank || metaShrank {
                try reloadWithNewMappings()
                return
            }
        }
        // A meta file that was a hole when loaded is read only once it holds data.
        if !metaReadable { _ = readMeta() }
        let view = metaReadable ? meta.bytes : UnsafeRawBufferPointer(start: nil, count: 0)
        guard view.count >= MetaInfo.size, let base = view.baseAddress else { return }
        let fileSequence = MetaInfo.load(at: MetaInfo.Offset.sequence, from: base)
        let fileCRC = MetaInfo.load(at: MetaInfo.Offset.crc, from: base)
        let fileSize = Int(MetaInfo.load(at: MetaInfo.Offset.actualSize, from: base))
        let pending = MetaInfo.load(at: MetaInfo.Offset.pendingMagic, from: base) == MetaInfo.pendingMagic
        if fileSequence != knownSequence || pending {
            try reload(remap: true)
            if recordChanges { pendingChanges.append(KVStoreChange(key: nil, kind: .reloaded, byOtherProcess: true)) }
            return
        }
        guard fileCRC != knownCRC || fileSize != knownSize else {
            if pendingRepair && lock.holdsExclusiveOrDisabled { try reload(remap: true) }
            return
        }
        // Appends by another process: extend the CRC over the new bytes and decode only them.
        if fileSize > actualSize && knownSize == actualSize && !pendingRepair {
            if 4 + fileSize > data.size { _ = try data.refreshSize() }
            if 4 + fileSize <= data.size, let dataBase = data.base {
                let extended = CRC32.update(crc, dataBase + 4 + actualSize, count: fileSize - actualSize)
                if extended == fileCRC {
                    do {
                        let appendedFrom = 4 + actualSize
                        try decodeAppended(upTo: fileSize, base: dataBase)
                        if recordChanges { recordAppendedChanges(from: appendedFrom) }
                        crc = fileCRC
                        knownCRC = fileCRC
                        knownSize = fileSize
                        return
                    } catch {
                        // Fall through to a full reload.
                    }
                }
            }
        }
        try reload(remap: true)
        if recordChanges { pendingChanges.append(KVStoreChange(key: nil, kind: .reloaded, byOtherProcess: true)) }
    }

    /// Maps both files afresh at their current sizes and reloads from them.
    private func reloadWithNewMappings() throws(KVStoreError) {
        if !meta.isAbsent { try meta.remapAtCurrentSize() }
        metaPointer = nil    // remapped: a successful reload grows the meta file back and sets it
        try reload(remap: true)
    }

    /// Runs `operation`, a shared store's read (`retry`) or write, and checks that the fault guard
    /// answered no fault in this store's mappings meanwhile. When it did (a file was cut short
    /// under the store by another program), what the operation read is not trusted: the files are
    /// mapped afresh and the store reloads from what they hold, as the damage policy allows. A read
    /// then runs once more; a write was not stored, and fails with `damaged`.
    @inline(__always)
    func guardingFaults<R>(retry: Bool, _ operation: () throws(KVStoreError) -> R) throws(KVStoreError) -> R {
        if let value = try attemptWatchingFaults(operation) { return value }
        if retry, let value = try attemptWatchingFaults(operation) { return value }
        let what = retry ? "the read touched bytes past its end twice" : "the write touched bytes past its end and was not stored"
        throw cutShortError(lastCutFile ?? dataPath, what)
    }

    /// One attempt of ``guardingFaults(retry:_:)``: the operation's value or error, or `nil` after a
    /// fault in this store's mappings, once the store has reloaded. No Result on the way: a
    /// KVStoreError is large, and copying one in and out of a Result on every operation cost more
    /// than the check.
    @inline(__always)
    private func attemptWatchingFaults<R>(_ operation: () throws(KVStoreError) -> R) throws(KVStoreError) -> R? {
        let faultsBefore = coffer_mapping_guard_faults()
        do throws(KVStoreError) {
            let value = try operation()
            guard coffer_mapping_guard_faults() != faultsBefore, takeFaults() else { return value }
        } catch {
            guard coffer_mapping_guard_faults() != faultsBefore, takeFaults() else { throw error }
        }
        try recoverFromFault()
        return nil
    }

    /// Whether the guard answered a fault in either mapping (clearing the marks); the file is
    /// noted in ``lastCutFile`` (the data file when both), for the error that may follow.
    private func takeFaults() -> Bool {
        let inData = data.takeFault()
        let inMeta = meta.takeFault()
        guard inData || inMeta else { return false }
        lastCutFile = inData ? dataPath : metaPath
        return true
    }

    /// `damaged`, naming `path`, a file cut short under the store (with the data file's size when
    /// it is the data file: `dataFileSize`, or read now).
    private func cutShortError(_ path: String, _ what: String, dataFileSize: Int? = nil) -> KVStoreError {
        let size = path == dataPath ? dataFileSize ?? (try? data.currentFileSize()) ?? 0 : nil
        let damage = size.map { KVStoreDamage.truncatedDataFile(fileSize: $0) }
        return KVStoreError(.damaged, "the file was cut short by another program while in use: \(what)", path: path).withDamage(damage)
    }

    /// After a fault: a page of a mapping reads as zeros, so both are replaced and the store
    /// reloads. A fault during the reload itself (the file cut again) fails the operation.
    private func recoverFromFault() throws(KVStoreError) {
        let faultsBefore = coffer_mapping_guard_faults()
        try reloadWithNewMappings()
        if coffer_mapping_guard_faults() != faultsBefore, takeFaults() {
            try reloadWithNewMappings()
            throw cutShortError(lastCutFile ?? dataPath, "it was cut again while the store reloaded")
        }
    }

    /// Records the entries another process appended in `[from, 4 + actualSize)` as changes.
    private func recordAppendedChanges(from start: Int) {
        guard let base = valueBase else { return }
        var changes: [KVStoreChange] = []
        _ = try? EntryDecoder.walk(base, from: start, to: 4 + actualSize, skipPlaceholder: false, expiration: expiration, greedy: true) {
            _, key, _, valueLength in
            changes.append(KVStoreChange(key: EntryDecoder.key(key), kind: valueLength == 0 ? .removed : .set, byOtherProcess: true))
        }
        pendingChanges += changes
    }

    private func decodeAppended(upTo newSize: Int, base dataBase: UnsafeMutableRawPointer) throws(KVStoreError) {
        let start = 4 + actualSize
        let count = newSize - actualSize
        // Decoded straight into the index: on failure the caller reloads everything.
        if crypt != nil, let buffer = plaintext, var stream = cipher {
            buffer.reserve(max(data.size, 4 + newSize))
            let target = buffer.base + start
            target.copyMemory(from: dataBase + start, byteCount: count)
            stream.decrypt(UnsafeMutableRawBufferPointer(start: target, count: count))
            try EntryDecoder.decode(
                buffer.base, from: start, to: 4 + newSize, skipPlaceholder: false, expiration: expiration,
                greedy: false, into: &index)
            cipher = stream
        } else {
            try EntryDecoder.decode(
                dataBase, from: start, to: 4 + newSize, skipPlaceholder: false, expiration: expiration,
                greedy: false, into: &index)
        }
        actualSize = newSize
    }

    // MARK: Reading

    /// The base that index offsets address: the plaintext buffer or the data mapping.
    @inline(__always)
    var valueBase: UnsafeRawPointer? {
        if let buffer = plaintext?.base { return UnsafeRawPointer(buffer) }
        return UnsafeRawPointer(data.base)
    }

    /// The size of the memory index offsets address (bounds every read through the index).
    var valueLimit: Int { plaintext?.capacity ?? data.size }

    /// The value location of `key` (expired or not), or `nil`.
    @inline(__always)
    func entry(for key: String) -> IndexEntry? {
        index.probe.lookup(key, base: valueBase, limit: valueLimit)
    }

    /// Every indexed entry (expired ones included) as key, value location — in file order.
    func indexedEntries() -> [(key: String, entry: IndexEntry)] {
        guard let base = valueBase else { return [] }
        let limit = valueLimit
        return index.entryOffsetsInFileOrder().compactMap { offset in
            guard let parts = StoreIndex.parse(base, entryOffset: offset, limit: limit) else { return nil }
            return (EntryDecoder.key(parts.key), parts.value)
        }
    }

    /// Calls `body` with the live payload of `key` (without its expire trailer), or returns `nil`
    /// when the key is absent or expired.
    @inline(__always)
    func withPayload<R>(_ key: String, _ body: (UnsafeRawBufferPointer) throws(KVStoreError) -> R) throws(KVStoreError) -> R? {
        // Through the probe: plain words, so the index (and its table) is neither copied nor retained.
        guard let base = valueBase, let entry = index.probe.lookup(key, base: base, limit: valueLimit) else { return nil }
        var length = Int(entry.length)
        let start = base + Int(entry.offset)
        if expiration {
            length -= 4
            let expireAt = UInt32(littleEndian: start.loadUnaligned(fromByteOffset: length, as: UInt32.self))
            if expireAt != 0 && expireAt <= now { return nil }
        }
        return try body(UnsafeRawBufferPointer(start: start, count: length))
    }

    /// The expire-at time of `key` (0 = never), `nil` when absent or expiration is off.
    func expireAt(_ key: String) -> UInt32? {
        guard expiration, let base = valueBase, let entry = entry(for: key) else { return nil }
        let start = base + Int(entry.offset)
        return UInt32(littleEndian: start.loadUnaligned(fromByteOffset: Int(entry.length) - 4, as: UInt32.self))
    }

    func isExpired(_ entry: IndexEntry, base: UnsafeRawPointer, now: UInt32) -> Bool {
        guard expiration else { return false }
        let expireAt = UInt32(littleEndian: (base + Int(entry.offset)).loadUnaligned(fromByteOffset: Int(entry.length) - 4, as: UInt32.self))
        return expireAt != 0 && expireAt <= now
    }

    /// Live (unexpired) keys.
    func liveKeys() -> [String] {
        guard let base = valueBase else { return [] }
        let now = self.now
        return indexedEntries().compactMap { isExpired($0.entry, base: base, now: now) ? nil : $0.key }
    }

    /// Live entries in file order: key, payload without trailer, expire-at (nil without expiration).
    func liveEntries() -> [KVStoreEntry] {
        guard let base = valueBase else { return [] }
        let now = self.now
        return indexedEntries().compactMap { key, entry in
            if isExpired(entry, base: base, now: now) { return nil }
            let length = Int(entry.length) - (expiration ? 4 : 0)
            let payload = Array(UnsafeRawBufferPointer(start: base + Int(entry.offset), count: length))
            return KVStoreEntry(key: key, payload: payload, expireAt: expiration ? expireAt(key) : nil)
        }
    }

    // MARK: Writing

    static let placeholderRange: ClosedRange<UInt32> = 0x20_0000...0x0FFF_FFFF
    static let compactSuffix = ".tmp-compact"

    /// Starts an empty data region: a random 4-byte placeholder (and, encrypted, a fresh IV),
    /// committed with a full meta write (sequence + 1), as MMKV's first insert does.
    func startRegion() throws(KVStoreError) {
        try ensureWritable(upTo: 8)
        guard let dataBase = data.base else { throw readOnlyError("write") }
        let placeholder = UInt32.random(in: Self.placeholderRange)
        if let crypt {
            do { iv = try SecureRandom.bytes(16) } catch {
                throw KVStoreError(.systemCall, "no random bytes for the IV: \(error)", path: dataPath, operation: "SecureRandom.bytes", cause: error)
            }
            let buffer = PlaintextBuffer(capacity: data.size)
            Varint.write(UInt64(placeholder), to: buffer.base + 4)
            (dataBase + 4).copyMemory(from: buffer.base + 4, byteCount: 4)
            var stream = crypt.stream(iv: iv)
            stream.encrypt(UnsafeMutableRawBufferPointer(start: dataBase + 4, count: 4))
            cipher = stream
            plaintext = buffer
        } else {
            Varint.write(UInt64(placeholder), to: dataBase + 4)
        }
        actualSize = 4
        crc = CRC32.update(0, dataBase + 4, count: 4)
        index = StoreIndex()
        sequence &+= 1
        try writeFullMeta(currentMetaInfo(), sync: false)
    }

    /// Appends one entry: `key`, then a value of `payloadCount` bytes written by `writePayload`,
    /// then (expiration on) the expire trailer. `payloadCount == 0` appends a tombstone.
    ///
    /// Commit order (each store separated by a fence, see `StoreLoader` for the recovery rule):
    /// entry bytes → 4-byte header = new size → meta CRC → meta size. A kill before the header
    /// leaves the old state; between header and meta size, the header identifies the new one.
    @inline(__always)
    func append(
        key: String, payloadCount: Int, expireAt: UInt32, writePayload: (UnsafeMutableRawPointer) -> Void
    ) throws(KVStoreError) {
        var key = key
        let keyLength = key.utf8.count
        guard keyLength > 0, keyLength <= EntryDecoder.maximumKeyLength else {
            throw KVStoreError(.invalidKey, keyLength == 0 ? "empty key" : "key longer than 65,531 bytes", operation: "set")
        }
        let valueLength = payloadCount == 0 ? 0 : payloadCount + (expiration ? 4 : 0)
        let entrySize = StoreIndex.entrySize(keyLength: keyLength, valueLength: valueLength)
        guard entrySize < Int(UInt32.max) / 2 else {
            throw KVStoreError(.invalidArgument, "entry too large (\(entrySize) bytes)", key: key, operation: "set")
        }
        if actualSize == 0 { try startRegion() }
        try ensureSpace(for: entrySize)
        guard let dataBase = data.base, let metaPointer else { throw readOnlyError("set") }
        let start = 4 + actualSize
        let target = plaintext?.base ?? dataBase
        var position = target + start
        position += Varint.write(UInt64(keyLength), to: position)
        key.withUTF8 { position.copyMemory(from: $0.baseAddress!, byteCount: keyLength) }
        position += keyLength
        position += Varint.write(UInt64(valueLength), to: position)
        if payloadCount > 0 {
            writePayload(position)
            if expiration {
                (position + payloadCount).storeBytes(of: expireAt.littleEndian, as: UInt32.self)
            }
        }
        if plaintext != nil {
            (dataBase + start).copyMemory(from: target + start, byteCount: entrySize)
            cipher!.encrypt(UnsafeMutableRawBufferPointer(start: dataBase + start, count: entrySize))
        }
        crc = CRC32.update(crc, dataBase + start, count: entrySize)
        actualSize += entrySize
        atomicMemoryFence(ordering: .releasing)
        dataBase.storeBytes(of: UInt32(actualSize).littleEndian, as: UInt32.self)
        atomicMemoryFence(ordering: .releasing)
        MetaInfo.store(crc, at: MetaInfo.Offset.crc, to: metaPointer)
        atomicMemoryFence(ordering: .releasing)
        MetaInfo.store(UInt32(actualSize), at: MetaInfo.Offset.actualSize, to: metaPointer)
        knownCRC = crc
        knownSize = actualSize
        let limit = valueLimit
        key.withUTF8 { bytes in
            index.record(key: UnsafeRawBufferPointer(bytes), entryOffset: start, valueLength: valueLength, base: target, limit: limit)
        }
        if recordChanges {
            pendingChanges.append(KVStoreChange(key: key, kind: payloadCount == 0 ? .removed : .set, byOtherProcess: false))
        }
    }

    /// Files below this size grow instead of compacting: a crash-safe write-back costs three
    /// fsyncs (and, shared, a full reload in every other process), so small stores buy room.
    static let compactionThreshold = 64 * 1024

    /// Makes room for an entry of `entrySize` bytes: grows the file in place (MMKV's sizing rule)
    /// or, when the file is not small and at least half of the used bytes are dead, compacts
    /// through a write-back.
    func ensureSpace(for entrySize: Int) throws(KVStoreError) {
        let needed = 4 + actualSize + entrySize
        // The hot path: the bytes are mapped and reserved (see `MappedFile`).
        guard needed > data.allocatedSize || meta.allocatedSize < MetaInfo.size else { return }
        guard needed > data.size else { return try ensureWritable(upTo: needed) }
        let liveCount = index.count + 1
        if index.deadBytes * 2 >= actualSize && data.size >= Self.compactionThreshold {
            var plan = WriteBackPlan()
            plan.reserve = entrySize
            try writeBack(plan)
            if 4 + actualSize + entrySize <= data.size { return }
        }
        let lengthNeeded = 4 + actualSize + entrySize
        let average = (lengthNeeded + liveCount - 1) / liveCount
        let future = average * max(8, liveCount / 2)
        var size = max(data.size, Syscall.pageSize)
        while lengthNeeded + future >= size { size *= 2 }
        try data.grow(to: size)
        plaintext?.reserve(data.size)
        try ensureWritable(upTo: needed)
    }

    /// Drops every expired key from the index view used by count/allKeys (no write).
    func liveCount() -> Int {
        guard expiration, let base = valueBase else { return index.count }
        let now = self.now
        return indexedEntries().reduce(0) { $0 + (isExpired($1.entry, base: base, now: now) ? 0 : 1) }
    }

    /// Writes a pending repair found under a shared lock, once the exclusive lock is held.
    @inline(__always)
    func prepareForWrite() throws(KVStoreError) {
        if pendingRepair { try reload(remap: true) }
    }

    /// Closes the store: unmaps and closes both files (which drops every lock this process held on
    /// them) and lets go of the index, the plaintext and the crypt key. The owning ``KVStore``
    /// touches nothing of a closed core.
    func close() {
        data = MappedFile(absentPath: dataPath)
        meta = MappedFile(absentPath: metaPath)
        metaPointer = nil
        metaReadable = false
        crypt = nil
        cipher = nil
        plaintext = nil
        index = StoreIndex()
        pendingChanges = []
    }

    /// `msync` of both files.
    func sync() throws(KVStoreError) {
        try data.sync()
        try meta.sync()
    }

    /// Both files' descriptors, duplicated, for a flush outside the store's lock.
    func syncTarget() throws(KVStoreError) -> SyncTarget {
        try SyncTarget(data: data, meta: meta)
    }
}

extension FileLock {
    /// Whether writes are allowed now: the lock is disabled (single process) or held exclusively.
    var holdsExclusiveOrDisabled: Bool { !enabled || isExclusive }
}
