#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineSupport

/// Writes command output to a file (private keys with mode 0600) or to stdout.
package enum OutputFile {
    /// Writes `bytes` to `path`, or to stdout when `path` is nil or `-`. A file is created with
    /// `mode` (0600 for anything secret) and an existing file is truncated and given that mode.
    package static func write(_ bytes: [UInt8], to path: String?, mode: mode_t = 0o644) throws {
        guard let path, path != "-" else { return try writeStandardOutput(bytes) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw CommandError("\(path): cannot create: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        try finish(fd, bytes, path: path, mode: mode)
    }

    /// Writes a new key file: `path` must not exist (nor be a symbolic link, even a dangling one)
    /// unless `force`, and no link is ever followed. Without `force` the file is created with
    /// `O_CREAT | O_EXCL | O_NOFOLLOW`; with `force` the bytes go to a new temporary file in the
    /// same directory, which is then renamed over `path` (replacing a link, not writing through
    /// it). Standard output when `path` is nil or `-`.
    package static func writeNew(_ bytes: [UInt8], to path: String?, mode: mode_t, force: Bool) throws {
        guard let path, path != "-" else { return try writeStandardOutput(bytes) }
        guard force else {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            guard fd >= 0 else {
                let code = errno
                if code == EEXIST {
                    var status = stat()
                    let isLink = lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
                    throw CommandError(isLink
                        ? "\(path): is a symbolic link; keytool does not write through links (give --force to replace the link itself)"
                        : "\(path): already exists; give --force to replace it")
                }
                throw CommandError("\(path): cannot create: \(String(cString: strerror(code)))")
            }
            defer { close(fd) }
            do {
                try finish(fd, bytes, path: path, mode: mode)
            } catch {
                unlink(path)
                throw error
            }
            return
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array((directory + "." + base + ".keytool-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw CommandError("\(path): cannot create a temporary file beside it: \(String(cString: strerror(errno)))") }
        let temporary = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            defer { close(fd) }
            try finish(fd, bytes, path: path, mode: mode)
            guard rename(temporary, path) == 0 else {
                throw CommandError("\(path): cannot replace: \(String(cString: strerror(errno)))")
            }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    private static func writeStandardOutput(_ bytes: [UInt8]) throws {
        guard SystemIO.writeStandardOutput(bytes) else {
            throw CommandError("standard output: write failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Sets the mode, writes everything and syncs.
    /// Sets the mode, writes and flushes a regular file. A device or pipe (`/dev/null`, a FIFO,
    /// `/dev/stdout`) is only written: changing its mode would change it for the whole system (as
    /// root, `-o /dev/null` made /dev/null 0600), and it cannot be flushed.
    private static func finish(_ fd: Int32, _ bytes: [UInt8], path: String, mode: mode_t) throws {
        var status = stat()
        let isRegular = fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        if isRegular {
            guard fchmod(fd, mode) == 0 else { throw CommandError("\(path): cannot set mode: \(String(cString: strerror(errno)))") }
        }
        guard SystemIO.writeAll(fd, bytes) else {
            throw CommandError("\(path): write failed: \(String(cString: strerror(errno)))")
        }
        if isRegular {
            guard fsync(fd) == 0 else { throw CommandError("\(path): fsync failed: \(String(cString: strerror(errno)))") }
        }
    }
}
