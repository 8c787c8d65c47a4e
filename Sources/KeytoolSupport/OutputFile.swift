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
        guard let path, path != "-" else {
            guard SystemIO.writeStandardOutput(bytes) else {
                throw CommandError("standard output: write failed: \(String(cString: strerror(errno)))")
            }
            return
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw CommandError("\(path): cannot create: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard fchmod(fd, mode) == 0 else { throw CommandError("\(path): cannot set mode: \(String(cString: strerror(errno)))") }
        guard SystemIO.writeAll(fd, bytes) else {
            throw CommandError("\(path): write failed: \(String(cString: strerror(errno)))")
        }
        guard fsync(fd) == 0 else { throw CommandError("\(path): fsync failed: \(String(cString: strerror(errno)))") }
    }
}
