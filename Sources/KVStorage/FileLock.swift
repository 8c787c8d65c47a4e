#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The inter-process lock: BSD `flock` on the meta (`.crc`) file's descriptor, as MMKV uses it.
///
/// Reentrant shared and exclusive counters. Asking for the exclusive lock while holding the shared
/// one first tries a non-blocking `LOCK_EX`; if another process holds a shared lock it releases
/// its own shared lock (`LOCK_UN`) and then blocks on `LOCK_EX`, so two upgrading processes never
/// wait on each other. Because the shared lock may have been dropped, callers must re-check the
/// store's state after acquiring. Releasing the last exclusive lock while a shared one is still
/// counted downgrades back to `LOCK_SH`. A disabled lock (single-process mode) does nothing.
struct FileLock {
    enum Kind { case shared, exclusive }

    let descriptor: Int32
    let path: String
    let enabled: Bool
    private var sharedCount = 0
    private var exclusiveCount = 0

    /// Whether the exclusive lock is held.
    var isExclusive: Bool { exclusiveCount > 0 }

    init(descriptor: Int32, path: String, enabled: Bool) {
        self.descriptor = descriptor
        self.path = path
        self.enabled = enabled
    }

    /// Acquires the lock; returns `true` when the lock was upgraded through an unlocked window
    /// (other processes may have written in between).
    @discardableResult @inline(__always)
    mutating func lock(_ kind: Kind) throws(KVStoreError) -> Bool {
        guard enabled else { return false }
        switch kind {
        case .shared:
            sharedCount += 1
            if sharedCount == 1 && exclusiveCount == 0 {
                do { try Syscall.lock(descriptor, LOCK_SH, path: path) } catch { sharedCount -= 1; throw error }
            }
            return false
        case .exclusive:
            exclusiveCount += 1
            guard exclusiveCount == 1 else { return false }
            if sharedCount > 0 {
                do {
                    if try Syscall.lock(descriptor, LOCK_EX | LOCK_NB, path: path) { return false }
                    try Syscall.lock(descriptor, LOCK_UN, path: path)
                    try Syscall.lock(descriptor, LOCK_EX, path: path)
                } catch {
                    exclusiveCount -= 1
                    throw error
                }
                return true
            }
            do { try Syscall.lock(descriptor, LOCK_EX, path: path) } catch { exclusiveCount -= 1; throw error }
            return false
        }
    }

    /// Releases one level of `kind`.
    @inline(__always)
    mutating func unlock(_ kind: Kind) {
        guard enabled else { return }
        switch kind {
        case .shared:
            guard sharedCount > 0 else { return }
            sharedCount -= 1
            if sharedCount == 0 && exclusiveCount == 0 { _ = try? Syscall.lock(descriptor, LOCK_UN, path: path) }
        case .exclusive:
            guard exclusiveCount > 0 else { return }
            exclusiveCount -= 1
            if exclusiveCount == 0 {
                let operation = sharedCount > 0 ? LOCK_SH : LOCK_UN
                _ = try? Syscall.lock(descriptor, operation, path: path)
            }
        }
    }
}
