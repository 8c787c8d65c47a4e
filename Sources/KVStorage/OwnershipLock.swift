import CofferErrors
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Who may have a store open at the same time, across processes: held for as long as the store is
/// open, so that a second process cannot corrupt a store that one process opened for itself.
///
/// A read-write open in single-process mode owns the store alone (an exclusive lock); a
/// multi-process open, or a read-only one, shares it (a shared lock). A conflicting open fails at
/// once with `inUse`, naming the other process's pid when it can be found, instead of both writing
/// the files without coordination (what loses acknowledged writes with MMKV, whose single-process
/// mode takes no lock at all).
///
/// The lock is an open file description lock (Linux `F_OFD_SETLK`) on a byte range of the meta
/// (`.crc`) file far past its end: it changes no byte of the file, does not interact with the
/// `flock` that MMKV and ``FileLock`` use on the same file, and is dropped by the kernel when the
/// last descriptor of the open file closes — a killed process leaves no stale lock. Each holder
/// also read-locks one byte at `markerBase + pid`, so that a refused opener can read the holder's
/// pid from the start of the conflicting range (`F_OFD_GETLK` reports no pid for OFD locks); a
/// conflict with this very process is no conflict (its own opens coordinate in memory).
/// Stores opened by other programs (MMKV itself) are not seen. On systems without OFD locks
/// nothing is locked.
struct OwnershipLock {
    /// The byte that every open locks, shared or exclusive.
    static let ownershipOffset = 1 << 40
    /// Holders' pid markers start here.
    static let markerBase = ownershipOffset + 1
    /// Pids are below 2^22 on Linux; the marker range is wider to be safe.
    static let markerRange = 1 << 32

    /// Takes the lock on `descriptor` (the open meta file of `path`).
    ///
    /// - Throws: `inUse` when another process holds a conflicting lock; `systemCall` when locking
    ///   fails otherwise.
    static func acquire(descriptor: Int32, exclusive: Bool, path: String) throws(KVStoreError) {
        guard descriptor >= 0 else { return }
        let taken = try Syscall.rangeLock(descriptor, exclusive: exclusive, start: ownershipOffset, length: 1, path: path)
        guard taken else {
            let holder = Syscall.conflictingLockStart(descriptor, start: markerBase, length: markerRange).map { $0 - markerBase }
            // This process itself owns the store (an open ``KVStore`` next to `KVStore.verify` or a
            // listing): within a process the store's own mutex and registry coordinate.
            if holder == Int(getpid()) { return }
            let who = holder.map { "another process (pid \($0))" } ?? "another process"
            let mode = exclusive
                ? "opened single-process, which needs the store to itself, but \(who) has it open"
                : "\(who) has it open single-process, for itself alone"
            throw KVStoreError(.inUse, "the store is in use: \(mode)", path: path, operation: "open")
        }
        _ = try? Syscall.rangeLock(descriptor, exclusive: false, start: markerBase + Int(getpid()), length: 1, path: path)
    }
}
