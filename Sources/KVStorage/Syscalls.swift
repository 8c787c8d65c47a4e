import CofferErrors
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Every C call KVStorage makes, each wrapped exactly once: `EINTR` is retried and a failure becomes
/// a ``KVStoreError`` carrying the call's name, `errno` and the path it concerned.
enum Syscall {
    static let pageSize: Int = Int(sysconf(Int32(_SC_PAGESIZE)))

    static func failure(_ operation: String, path: String?, errno code: Int32 = errno,
                        file: String = #fileID, line: Int = #line) -> KVStoreError {
        KVStoreError(.systemCall, "\(operation) failed: \(String(cString: strerror(code)))", path: path, operation: operation, errno: code,
                     file: file, line: line)
    }

    /// `open(2)`; returns the descriptor.
    static func open(_ path: String, flags: Int32, mode: mode_t = 0o600) throws(KVStoreError) -> Int32 {
        while true {
            let fd = path.withCString { Glibc_open($0, flags | O_CLOEXEC, mode) }
            if fd >= 0 { return fd }
            if errno == EINTR { continue }
            let code = errno
            if code == ENOENT {
                throw KVStoreError(.notFound, "no such file", path: path, operation: "open", errno: code)
            }
            throw failure("open", path: path, errno: code)
        }
    }

    /// `close(2)`; errors are ignored (the descriptor is gone either way).
    static func close(_ fd: Int32) {
        _ = Glibc_close(fd)
    }

    /// `fstat(2)`: the file's size and its status-change time (`st_ctim`: any write, truncation
    /// or rename moves it).
    static func status(_ fd: Int32, path: String) throws(KVStoreError) -> (size: Int, changeTime: Duration) {
        var info = stat()
        if fstat(fd, &info) != 0 { throw failure("fstat", path: path) }
        #if canImport(Darwin)
        let time = info.st_ctimespec
        #else
        let time = info.st_ctim
        #endif
        return (Int(info.st_size), .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec)))
    }

    /// `fstat(2)`, returning the file size.
    static func fileSize(_ fd: Int32, path: String) throws(KVStoreError) -> Int {
        try status(fd, path: path).size
    }

    /// `clock_gettime(CLOCK_REALTIME)`: the clock file times are stamped with.
    static func realtimeNow() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return .seconds(Int64(now.tv_sec)) + .nanoseconds(Int64(now.tv_nsec))
    }

    /// `ftruncate(2)`. A size past `RLIMIT_FSIZE` is `noSpace` (`EFBIG`).
    static func truncate(_ fd: Int32, to size: Int, path: String) throws(KVStoreError) {
        while ftruncate(fd, off_t(size)) != 0 {
            if errno == EINTR { continue }
            let code = errno
            if isNoSpace(code) { throw noSpace(bytes: size, path: path, operation: "ftruncate", errno: code) }
            throw failure("ftruncate", path: path, errno: code)
        }
    }

    /// Whether `code` says the file system has no room: `ENOSPC`, `EDQUOT` or `EFBIG` (a file
    /// size limit, `RLIMIT_FSIZE`).
    static func isNoSpace(_ code: Int32) -> Bool {
        code == ENOSPC || code == EDQUOT || code == EFBIG
    }

    /// Reserves the blocks of `[offset, offset + length)` so that writes through a mapping never
    /// fault for lack of space (`posix_fallocate(3)`; the file grows when the range ends past it).
    /// Bytes already there are not changed; where a file system has no `fallocate`, glibc writes
    /// the blocks instead. Elsewhere than Linux nothing is reserved.
    ///
    /// - Throws: `noSpace` (with the bytes asked for and the errno) on `ENOSPC`, `EDQUOT` and
    ///   `EFBIG`; `systemCall` otherwise.
    static func allocate(_ fd: Int32, offset: Int, length: Int, path: String) throws(KVStoreError) {
        #if os(Linux)
        guard length > 0 else { return }
        var code: Int32
        repeat { code = posix_fallocate(fd, off_t(offset), off_t(length)) } while code == EINTR
        if code == 0 { return }
        if isNoSpace(code) { throw noSpace(bytes: offset + length, path: path, operation: "posix_fallocate", errno: code) }
        throw failure("posix_fallocate", path: path, errno: code)
        #endif
    }

    /// The `noSpace` error for a file that needed to hold `bytes` bytes.
    static func noSpace(bytes: Int, path: String, operation: String, errno code: Int32,
                        file: String = #fileID, line: Int = #line) -> KVStoreError {
        KVStoreError(.noSpace, "no room on the file system for \(bytes) bytes: \(String(cString: strerror(code)))", path: path, operation: operation, errno: code,
                     file: file, line: line)
    }

    /// The length of the prefix of the file that holds data (`lseek(2)` `SEEK_HOLE` from 0), at most
    /// `size`. A hole reads as zeros, but on tmpfs touching one through a mapping needs a free page
    /// and raises `SIGBUS` on a full file system; readers stop before it.
    static func backedPrefix(_ fd: Int32, size: Int) -> Int {
        guard size > 0 else { return 0 }
        let hole = lseek(fd, 0, SEEK_HOLE)
        guard hole >= 0 else { return size }    // no SEEK_HOLE here: every byte counts as data
        return min(size, Int(hole))
    }

    /// An open file description (OFD) lock on `[start, start + length)` of `fd`'s file (Linux
    /// `F_OFD_SETLK`, never blocking): a write lock is exclusive, a read lock shared. Returns `false`
    /// when a conflicting lock is held elsewhere. OFD locks are independent of `flock(2)` locks, are
    /// owned by the open file (not the process) and vanish when its last descriptor closes.
    static func rangeLock(_ fd: Int32, exclusive: Bool, start: Int, length: Int, path: String) throws(KVStoreError) -> Bool {
        #if os(Linux)
        var lock = flock()
        lock.l_type = Int16(exclusive ? F_WRLCK : F_RDLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(start)
        lock.l_len = off_t(length)
        while fcntl(fd, F_OFD_SETLK, &lock) != 0 {
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EACCES { return false }
            throw failure("fcntl(F_OFD_SETLK)", path: path)
        }
        #endif
        return true
    }

    /// The start of the first lock held elsewhere that would conflict with a write lock on
    /// `[start, start + length)` (`F_OFD_GETLK`), or `nil` when there is none.
    static func conflictingLockStart(_ fd: Int32, start: Int, length: Int) -> Int? {
        #if os(Linux)
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(start)
        lock.l_len = off_t(length)
        guard fcntl(fd, F_OFD_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK) else { return nil }
        return Int(lock.l_start)
        #else
        return nil
        #endif
    }

    /// `mmap(2)` with `MAP_SHARED`.
    static func map(_ fd: Int32, size: Int, writable: Bool, path: String) throws(KVStoreError) -> UnsafeMutableRawPointer {
        let protection = writable ? (PROT_READ | PROT_WRITE) : PROT_READ
        guard let pointer = mmap(nil, size, protection, MAP_SHARED, fd, 0), pointer != MAP_FAILED else {
            throw failure("mmap", path: path)
        }
        return pointer
    }

    /// `munmap(2)`.
    static func unmap(_ pointer: UnsafeMutableRawPointer, size: Int) {
        _ = munmap(pointer, size)
    }

    /// `msync(2)` with `MS_SYNC`.
    static func sync(_ pointer: UnsafeMutableRawPointer, size: Int, path: String) throws(KVStoreError) {
        while msync(pointer, size, MS_SYNC) != 0 {
            if errno == EINTR { continue }
            throw failure("msync", path: path)
        }
    }

    /// `fsync(2)`.
    static func fsync(_ fd: Int32, path: String) throws(KVStoreError) {
        while Glibc_fsync(fd) != 0 {
            if errno == EINTR { continue }
            throw failure("fsync", path: path)
        }
    }

    /// `fdatasync(2)`: on Linux it also writes back the pages dirtied through a `MAP_SHARED`
    /// mapping of the file (the same call `msync(MS_SYNC)` makes), without needing the mapping.
    static func dataSync(_ fd: Int32, path: String) throws(KVStoreError) {
        while Glibc_fdatasync(fd) != 0 {
            if errno == EINTR { continue }
            throw failure("fdatasync", path: path)
        }
    }

    /// `dup(2)` with close-on-exec: a second descriptor for the same open file.
    static func duplicate(_ fd: Int32, path: String) throws(KVStoreError) -> Int32 {
        while true {
            let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
            if copy >= 0 { return copy }
            if errno == EINTR { continue }
            throw failure("fcntl(F_DUPFD_CLOEXEC)", path: path)
        }
    }

    /// `fsync(2)` on a directory, so that a `rename` inside it is durable.
    static func syncDirectory(_ path: String) throws(KVStoreError) {
        let fd = try open(path, flags: O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        try fsync(fd, path: path)
    }

    /// `flock(2)`. With `LOCK_NB`, returns `false` when the lock is held elsewhere. The path is
    /// only read for an error: a shared store takes and drops this lock around every operation,
    /// and passing the string itself would retain and release it each time.
    @discardableResult
    static func lock(_ fd: Int32, _ operation: Int32, path: @autoclosure () -> String) throws(KVStoreError) -> Bool {
        while flock(fd, operation) != 0 {
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK && operation & LOCK_NB != 0 { return false }
            throw failure("flock", path: path())
        }
        return true
    }

    /// `rename(2)`.
    static func rename(_ from: String, to: String) throws(KVStoreError) {
        let rc = from.withCString { source in to.withCString { Glibc_rename(source, $0) } }
        if rc != 0 { throw failure("rename", path: to) }
    }

    /// `unlink(2)`; a missing file is not an error.
    static func unlink(_ path: String) throws(KVStoreError) {
        let rc = path.withCString { Glibc_unlink($0) }
        if rc != 0 && errno != ENOENT { throw failure("unlink", path: path) }
    }

    /// The size of the file at `path` (`stat(2)`), or `nil` when it does not exist or cannot be read.
    static func fileSize(atPath path: String) -> Int? {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// Whether `path` is a regular file (`stat(2)`, following symbolic links).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0 else { return false }
        return info.st_mode & S_IFMT == S_IFREG
    }

    /// The names in the directory at `path` (`opendir(3)`/`readdir(3)`), without `.` and `..`,
    /// sorted; a missing directory has none.
    static func directoryEntries(_ path: String) throws(KVStoreError) -> [String] {
        guard let directory = path.withCString({ opendir($0) }) else {
            if errno == ENOENT { return [] }
            throw failure("opendir", path: path)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Whether `path` exists (`access(2)` with `F_OK`).
    static func exists(_ path: String) -> Bool {
        path.withCString { access($0, F_OK) } == 0
    }

    /// `mkdir(2)` for every missing component of `path`, mode 0700.
    static func makeDirectories(_ path: String) throws(KVStoreError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            let rc = prefix.withCString { mkdir($0, 0o700) }
            if rc != 0 && errno != EEXIST { throw failure("mkdir", path: prefix) }
            prefix += "/"
        }
    }

    /// `pwrite(2)` until every byte is written.
    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, at offset: Int, path: String) throws(KVStoreError) {
        var done = 0
        while done < buffer.count {
            let count = pwrite(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                if isNoSpace(code) { throw noSpace(bytes: offset + buffer.count, path: path, operation: "pwrite", errno: code) }
                throw failure("pwrite", path: path, errno: code)
            }
            done += count
        }
    }

    /// `pread(2)` until `buffer` is full or the file ends; returns the bytes read.
    static func readAll(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, at offset: Int, path: String) throws(KVStoreError) -> Int {
        var done = 0
        while done < buffer.count {
            let count = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("pread", path: path)
            }
            if count == 0 { break }
            done += count
        }
        return done
    }

    /// The current Unix time in seconds, clamped to `UInt32`.
    static func now() -> UInt32 {
        UInt32(clamping: time(nil))
    }
}

// Unambiguous names for the libc functions whose Swift names the wrappers above shadow.
@inline(__always) private func Glibc_open(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
@inline(__always) private func Glibc_close(_ fd: Int32) -> Int32 { close(fd) }
@inline(__always) private func Glibc_fsync(_ fd: Int32) -> Int32 { fsync(fd) }
@inline(__always) private func Glibc_fdatasync(_ fd: Int32) -> Int32 { fdatasync(fd) }
@inline(__always) private func Glibc_rename(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 { rename(from, to) }
#if os(Linux)
// Linux constants that Glibc's module leaves out (they need _GNU_SOURCE in C).
private let SEEK_HOLE: Int32 = 4
private let F_OFD_GETLK: Int32 = 36
private let F_OFD_SETLK: Int32 = 37
#endif
@inline(__always) private func Glibc_unlink(_ path: UnsafePointer<CChar>) -> Int32 { unlink(path) }
