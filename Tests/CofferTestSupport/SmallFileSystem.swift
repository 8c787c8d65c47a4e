import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real, small file system for full-disk tests: a tmpfs of a given size mounted on a scratch
/// folder, where the tests run as root with the right to mount (CI does). Where mounting is not
/// allowed, ``available`` is false and full-disk tests fall back to a file size limit
/// (`RLIMIT_FSIZE`, see ``FileSizeLimit``).
public final class SmallFileSystem {
    /// The mount point.
    public let path: String

    /// Whether a tmpfs can be mounted here (tried once per process with a 64 KiB one).
    public static let available: Bool = {
        guard geteuid() == 0, let probe = try? SmallFileSystem(bytes: 64 * 1024) else { return false }
        probe.unmount()
        return true
    }()

    private var mounted = true

    /// Mounts a tmpfs of `bytes` bytes on a new scratch folder.
    public init(bytes: Int) throws {
        let folder = try TestScratch.directory("tmpfs").path
        let result = try ToolProcess.run(
            URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=\(bytes),mode=0700", "tmpfs", folder])
        guard result.status == 0 else {
            throw SmallFileSystemError(reason: "mount -t tmpfs failed (\(result.status)): \(result.stderr)")
        }
        path = folder
    }

    deinit { unmount() }

    /// Unmounts (lazily, so that a file still open does not keep it); idempotent.
    public func unmount() {
        guard mounted else { return }
        mounted = false
        _ = try? ToolProcess.run(URL(fileURLWithPath: "/bin/umount"), ["-l", path])
    }

    /// Fills the file system with a ballast file at `name` until it is full, leaving `spare` bytes
    /// free (as near as the file system's block accounting allows); returns the ballast's size.
    @discardableResult
    public func fill(leaving spare: Int = 0, name: String = "ballast") throws -> Int {
        try Self.fill(path, leaving: spare, name: name)
    }

    /// ``fill(leaving:name:)`` for the file system holding `directory` (a child process that only
    /// knows the path).
    @discardableResult
    public static func fill(_ directory: String, leaving spare: Int = 0, name: String = "ballast") throws -> Int {
        let ballast = directory + "/" + name
        let fd = open(ballast, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { throw SmallFileSystemError(reason: "cannot create \(ballast): errno \(errno)") }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0xA5, count: 4096)
        var total = 0
        while true {
            let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            if written <= 0 { break }
            total += written
        }
        if spare > 0 {
            let kept = max(0, total - spare)
            _ = ftruncate(fd, off_t(kept))
            total = kept
        }
        return total
    }

    /// Removes the ballast file, freeing its space.
    public func drain(name: String = "ballast") {
        Self.drain(path, name: name)
    }

    /// Removes the ballast file in `directory`.
    public static func drain(_ directory: String, name: String = "ballast") {
        unlink(directory + "/" + name)
    }

    /// Bytes free on the file system (`statvfs`).
    public var freeBytes: Int {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return 0 }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }
}

/// A mount that failed.
public struct SmallFileSystemError: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

/// The fallback where no file system can be mounted: a limit on the size of any file this process
/// writes (`RLIMIT_FSIZE`), with `SIGXFSZ` ignored so that passing it fails the write with `EFBIG`
/// instead of killing the process. Set it only in a child process: it applies to the whole process.
public enum FileSizeLimit {
    /// Limits every file the process writes to `bytes` bytes.
    public static func apply(bytes: Int) {
        signal(SIGXFSZ, SIG_IGN)
        var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
    }
}
