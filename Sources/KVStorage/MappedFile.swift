import CMappingGuard

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file and its `MAP_SHARED` mapping; unmaps and closes in `deinit`.
///
/// Growth is page-size aware: ``grow(to:)`` rounds up to a page multiple, extends the file with
/// `ftruncate` (the new range reads as zeros) and remaps. Extending never touches existing bytes,
/// so a kill during growth leaves the old contents intact.
///
/// No write through the mapping may reach a byte past ``allocatedSize``: a store in a hole of a
/// `MAP_SHARED` mapping allocates a block at the page fault, and on a full file system the kernel
/// answers that fault with `SIGBUS`. Writers call ``reserve(upTo:)`` first (`posix_fallocate`),
/// which fails with `noSpace` instead. Readers stay inside ``readableBytes``: on tmpfs even a read fault in a hole needs a page.
struct MappedFile: ~Copyable {
    let path: String
    let descriptor: Int32
    let writable: Bool
    private(set) var base: UnsafeMutableRawPointer?
    private(set) var size: Int
    /// The prefix of the file whose blocks are known to be reserved (0 until ``reserve(upTo:)``).
    private(set) var allocatedSize = 0
    /// Whether the mapping is registered with the fault guard (shared stores, whose files other
    /// programs may truncate): a page past the file's end then reads as zeros and marks the
    /// mapping (``takeFault()``) instead of raising `SIGBUS`.
    private let guarded: Bool
    /// The guard's slot for the current mapping, or -1.
    private var guardSlot: Int32 = -1

    /// Opens (and, when writable, creates with mode 0600) `path` and maps it. A writable file with a
    /// positive `minimumSize` is first grown to at least that size rounded up to a page; with
    /// `minimumSize` 0 it is mapped exactly as it is (so that it can be checked before it changes).
    init(path: String, writable: Bool, minimumSize: Int, guarded: Bool = false) throws(KVStoreError) {
        let flags = writable ? (O_RDWR | O_CREAT) : O_RDONLY
        let fd = try Syscall.open(path, flags: flags, mode: 0o600)
        var size = 0
        var base: UnsafeMutableRawPointer?
        do throws(KVStoreError) {
            size = try Syscall.fileSize(fd, path: path)
            if writable && minimumSize > 0 {
                let wanted = MappedFile.roundUp(max(size, minimumSize, 1))
                if wanted != size {
                    try Syscall.truncate(fd, to: wanted, path: path)
                    size = wanted
                }
            }
            if size > 0 { base = try Syscall.map(fd, size: size, writable: writable, path: path) }
        } catch {
            Syscall.close(fd)
            throw error
        }
        self.path = path
        self.descriptor = fd
        self.writable = writable
        self.base = base
        self.size = size
        self.guarded = guarded
        register()
    }

    /// A stand-in for a file that does not exist (a read-only store without a meta file): no
    /// descriptor, no bytes.
    init(absentPath path: String) {
        self.path = path
        self.descriptor = -1
        self.writable = false
        self.base = nil
        self.size = 0
        self.guarded = false
    }

    /// Whether this stands for a missing file.
    var isAbsent: Bool { descriptor < 0 }

    deinit {
        coffer_mapping_guard_unregister(guardSlot)
        if let base { Syscall.unmap(base, size: size) }
        if descriptor >= 0 { Syscall.close(descriptor) }
    }

    /// Rounds `size` up to a multiple of the page size (at least one page).
    static func roundUp(_ size: Int) -> Int {
        let page = Syscall.pageSize
        return max(page, (size + page - 1) / page * page)
    }

    /// The mapped bytes (empty when the file is empty).
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : size)
    }

    /// The mapped bytes up to the first hole of the file (`SEEK_HOLE`): what can be read without
    /// touching a hole. One `lseek` per call, so callers take it when they load, not per read.
    var readableBytes: UnsafeRawBufferPointer {
        guard let base else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        if allocatedSize >= size { return UnsafeRawBufferPointer(start: base, count: size) }
        // A file truncated under the mapping is only readable up to its new end.
        let fileSize = min(size, (try? Syscall.fileSize(descriptor, path: path)) ?? 0)
        return UnsafeRawBufferPointer(start: base, count: Syscall.backedPrefix(descriptor, size: fileSize))
    }

    /// Reserves the blocks of `[allocatedSize, end)` and some room beyond it (see the type's note),
    /// so that writes below the new ``allocatedSize`` cannot fault. The file keeps its size: room
    /// is reserved as the data reaches it, in steps of a quarter of what is reserved (at least
    /// 256 KiB, at most the mapping), so a file grown ahead of its data stays sparse as MMKV's do.
    ///
    /// - Throws: `noSpace` when the file system has no room; nothing changed then.
    mutating func reserve(upTo end: Int) throws(KVStoreError) {
        guard writable, end > allocatedSize else { return }
        let step = max(allocatedSize / 4, 256 * 1024)
        let target = min(size, MappedFile.roundUp(max(end, allocatedSize + step)))
        guard target > allocatedSize else { return }
        do throws(KVStoreError) {
            try Syscall.allocate(descriptor, offset: allocatedSize, length: target - allocatedSize, path: path)
            allocatedSize = target
        } catch where error.code == .noSpace && MappedFile.roundUp(end) < target {
            // No room for the step: reserve exactly what this write needs. Bytes already written
            // (a write-back's image) take no new blocks, so a committed write-back never fails here.
            let exact = min(size, MappedFile.roundUp(end))
            try Syscall.allocate(descriptor, offset: allocatedSize, length: exact - allocatedSize, path: path)
            allocatedSize = exact
        }
    }

    /// Extends the file to `newSize` rounded up to a page and remaps it. The new range is a hole
    /// until ``reserve(upTo:)`` reserves it.
    mutating func grow(to newSize: Int) throws(KVStoreError) {
        // Another process may already have grown the file further: never shrink it.
        let current = try Syscall.fileSize(descriptor, path: path)
        let target = max(MappedFile.roundUp(newSize), current)
        guard target > size else { return }
        if target > current { try Syscall.truncate(descriptor, to: target, path: path) }
        try remap(to: target)
    }

    /// The file's size now (`fstat`): less than ``size`` when another program truncated it, and
    /// then the mapping's tail must not be touched.
    func currentFileSize() throws(KVStoreError) -> Int {
        try Syscall.fileSize(descriptor, path: path)
    }

    /// Remaps after another process changed the file size; returns whether the size changed.
    mutating func refreshSize() throws(KVStoreError) -> Bool {
        let current = try Syscall.fileSize(descriptor, path: path)
        guard current != size else { return false }
        try remap(to: current)
        return true
    }

    /// Maps the file afresh at its current size, whether or not that changed (a page the fault
    /// guard replaced with zeros is gone then).
    mutating func remapAtCurrentSize() throws(KVStoreError) {
        try remap(to: try Syscall.fileSize(descriptor, path: path))
    }

    private mutating func remap(to newSize: Int) throws(KVStoreError) {
        coffer_mapping_guard_unregister(guardSlot)
        guardSlot = -1
        if let base { Syscall.unmap(base, size: size) }
        base = nil
        size = 0
        allocatedSize = min(allocatedSize, newSize)
        guard newSize > 0 else { return }
        base = try Syscall.map(descriptor, size: newSize, writable: writable, path: path)
        size = newSize
        register()
    }

    /// Registers the mapping with the fault guard (when ``guarded``).
    private mutating func register() {
        guard guarded, let base else { return }
        guardSlot = coffer_mapping_guard_register(base, size)
    }

    /// Whether the mapping is covered: guarded and registered, or mapping nothing. An uncovered
    /// mapping of a shared store has its file's size checked before each operation instead.
    var isCovered: Bool { base == nil || guardSlot >= 0 }

    /// Whether the guard answered a fault in this mapping since the last call (and clears the
    /// mark): a page of it now reads as zeros, so the mapping must be replaced before its bytes
    /// are trusted again.
    func takeFault() -> Bool {
        guardSlot >= 0 && coffer_mapping_guard_take_fault(guardSlot) != 0
    }

    /// `msync(MS_SYNC)` over the whole mapping.
    func sync() throws(KVStoreError) {
        if let base, writable { try Syscall.sync(base, size: size, path: path) }
    }
}
