/// Duplicated descriptors of a store's files, flushed with `fdatasync` outside the store's lock so
/// that writers keep going (and join the next flush) while one flush is in flight.
///
/// Writes made before the duplicates were taken are covered by flushing them even if the store then
/// remaps, compacts into a new file (a write-back syncs its new file itself) or closes: a duplicate
/// names the same open file, not a descriptor number that could be reused.
struct SyncTarget: ~Copyable {
    private var files: [(descriptor: Int32, path: String)] = []

    /// Duplicates the descriptors of the writable, present files among `data` and `meta`.
    init(data: borrowing MappedFile, meta: borrowing MappedFile) throws(KVStoreError) {
        for file in [(data.descriptor, data.path, data.writable), (meta.descriptor, meta.path, meta.writable)]
        where file.0 >= 0 && file.2 {
            do throws(KVStoreError) {
                files.append((try Syscall.duplicate(file.0, path: file.1), file.1))
            } catch {
                for taken in files { Syscall.close(taken.descriptor) }
                files = []
                throw error
            }
        }
    }

    /// Flushes every file (`fdatasync`), then closes the duplicates, also when a flush fails.
    consuming func flush() throws(KVStoreError) {
        for file in files { try Syscall.dataSync(file.descriptor, path: file.path) }
    }

    /// The duplicated descriptors (for tests).
    var descriptors: [Int32] { files.map(\.descriptor) }

    deinit {
        for file in files { Syscall.close(file.descriptor) }
    }
}
