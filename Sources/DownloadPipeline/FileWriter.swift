#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file that bytes are appended to; closes its descriptor in `deinit`. Used by one task
/// at a time. Each system call is wrapped here once and retried on `EINTR`.
final class FileWriter {
    let path: String
    private var descriptor: Int32
    /// Whether ``closeFile()`` closes the descriptor (not for standard output).
    private let ownsDescriptor: Bool

    /// Opens `path` for writing (created with `mode`), truncated unless `append`.
    init(path: String, append: Bool, mode: mode_t = 0o600) throws(DownloadError) {
        self.path = path
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC)
        var fd: Int32
        repeat { fd = open(path, flags, mode) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw DownloadError.file(path, "cannot open for writing", errno: errno) }
        descriptor = fd
        ownsDescriptor = true
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
        ownsDescriptor = true
    }

    /// Writes to a descriptor that stays open (standard output), named `name` in errors.
    init(borrowing descriptor: Int32, name: String) {
        path = name
        self.descriptor = descriptor
        ownsDescriptor = false
    }

    /// Creates a new temporary file beside `path` (same directory, so a rename can replace `path`
    /// atomically), named `PATH.download-XXXXXXXX`, mode 0600.
    /// The file is created with `O_CREAT | O_EXCL | O_NOFOLLOW`: an existing file or a symbolic
    /// link planted at that name is never opened, let alone written through.
    static func temporary(beside path: String, mode: mode_t = 0o600) throws(DownloadError) -> FileWriter {
        var attempts = 0
        while true {
            let candidate = path + ".download-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if fd >= 0 { return FileWriter(path: candidate, descriptor: fd) }
            let code = errno
            attempts += 1
            // EINTR, or a name taken by chance: try another.
            guard code == EINTR || (code == EEXIST && attempts < 16) else {
                throw DownloadError.file(path, "cannot create a temporary file beside it", errno: code)
            }
        }
    }

    deinit { closeFile() }

    /// Flushes the file's data to the storage device (`fsync`), so that a rename after it cannot
    /// expose an empty or partial file after a crash.
    func sync() throws(DownloadError) {
        guard descriptor >= 0 else { return }
        var result: Int32
        repeat { result = fsync(descriptor) } while result < 0 && errno == EINTR
        // EINVAL: a pipe or device, which has nothing to flush.
        if result < 0 && errno != EINVAL && errno != EROFS {
            throw DownloadError.file(path, "fsync failed", errno: errno)
        }
    }

    /// Writes all of `bytes`.
    func append(_ bytes: some Collection<UInt8>) throws(DownloadError) {
        guard !bytes.isEmpty else { return }
        let fd = descriptor
        let path = path
        let failure: Int32? = bytes.withContiguousStorageIfAvailable { buffer -> Int32? in
            Self.writeAll(fd, UnsafeRawBufferPointer(buffer))
        } ?? Array(bytes).withUnsafeBytes { Self.writeAll(fd, $0) }
        if let failure { throw DownloadError.file(path, "write failed", errno: failure) }
    }

    /// Closes the descriptor. Idempotent.
    func closeFile() {
        if descriptor >= 0 {
            if ownsDescriptor { _ = close(descriptor) }
            descriptor = -1
        }
    }

    /// `nil` on success, else the errno.
    private static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int32? {
        var done = 0
        while done < buffer.count {
            let result = write(fd, buffer.baseAddress! + done, buffer.count - done)
            if result < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += result
        }
        return nil
    }

    /// Reads the file at `path` in chunks of `chunkSize`, calling `body` with each.
    static func readChunks(_ path: String, chunkSize: Int = 1 << 20, _ body: ([UInt8]) throws(DownloadError) -> Void) throws(DownloadError) {
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw DownloadError.file(path, "cannot open for reading", errno: errno) }
        defer { _ = close(fd) }
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw DownloadError.file(path, "read failed", errno: errno)
            }
            if count == 0 { return }
            try body(Array(chunk[0..<count]))
        }
    }

    /// The size of the regular file at `path`, or `nil` when there is none.
    static func regularFileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Moves the file at `source` to `destination` (on the same file system, replacing what is
    /// there); on failure `source` is removed.
    ///
    /// - Throws: ``DownloadError`` `.file` naming `destination` and the system's reason.
    static func move(_ source: String, to destination: String) throws(DownloadError) {
        guard rename(source, destination) == 0 else {
            let code = errno
            unlink(source)
            throw DownloadError.file(destination, "cannot move the download into place", errno: code)
        }
    }

    /// Removes the file at `path`, if there is one.
    static func remove(_ path: String) {
        unlink(path)
    }

    /// Whether `path` names something other than a regular file or nothing (a device, a pipe).
    static func isSpecialFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) != S_IFREG
    }
}
