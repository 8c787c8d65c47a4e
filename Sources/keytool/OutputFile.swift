import Foundation

/// Writes command output to a file (private keys with mode 0600) or to stdout.
enum OutputFile {
    /// Writes `bytes` to `path`, or to stdout when `path` is nil or `-`. A file is created with
    /// `mode` (0600 for anything secret) and an existing file is truncated and given that mode.
    static func write(_ bytes: [UInt8], to path: String?, mode: mode_t = 0o644) throws {
        guard let path, path != "-" else {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw CommandError("\(path): cannot create: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard fchmod(fd, mode) == 0 else { throw CommandError("\(path): cannot set mode: \(String(cString: strerror(errno)))") }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                throw CommandError("\(path): write failed: \(String(cString: strerror(errno)))")
            }
            written += result
        }
        guard fsync(fd) == 0 else { throw CommandError("\(path): fsync failed: \(String(cString: strerror(errno)))") }
    }
}
