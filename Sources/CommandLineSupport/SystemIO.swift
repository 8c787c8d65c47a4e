#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few operating-system calls the command-line tools make outside the libraries, straight to
/// libc: reading a file or stdin, writing stdout and stderr, the environment and the clock,
/// removing a scratch directory, running a child or another program. The tools link no
/// Foundation, so they start without loading its ICU data and its thousands of conformances.
package enum SystemIO {
    /// The whole contents of `path`, or `nil` when it cannot be read.
    package static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return readAll(fd)
    }

    /// Everything on standard input, up to its end.
    package static func readStandardInput() -> [UInt8]? {
        readAll(0)
    }

    /// The value of the environment variable `name`, or `nil`.
    package static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Whether `path` names an existing file.
    package static func fileExists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Whether `path` names an existing directory.
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether standard input is a terminal (so that a prompt can be answered).
    package static var standardInputIsTerminal: Bool {
        isatty(0) == 1
    }

    /// Whether standard error is a terminal (so that progress drawn in place can be seen).
    package static var standardErrorIsTerminal: Bool {
        isatty(2) == 1
    }

    /// Writes all of `bytes` to standard output; `false` when the write fails (a closed pipe).
    @discardableResult
    package static func writeStandardOutput(_ bytes: [UInt8]) -> Bool {
        writeAll(1, bytes)
    }

    /// Writes `text` to standard output; `false` when the write fails (a closed pipe).
    @discardableResult
    package static func writeStandardOutput(_ text: String) -> Bool {
        writeAll(1, Array(text.utf8))
    }

    /// Writes `text` to standard error.
    package static func writeStandardError(_ text: String) {
        _ = writeAll(2, Array(text.utf8))
    }

    /// Seconds since 1970-01-01T00:00:00Z, from the system clock.
    package static func secondsSinceEpoch() -> Int64 {
        Int64(time(nil))
    }

    /// The local time zone's offset from UTC at `seconds` since 1970 (daylight saving included)
    /// and its abbreviation (`EST`, `IST`), from `localtime_r`, which follows `TZ`.
    package static func localTimeOffset(at seconds: Int64) -> (seconds: Int, zone: String) {
        var clock = time_t(seconds)
        var parts = tm()
        guard localtime_r(&clock, &parts) != nil else { return (0, "UTC") }
        let zone = parts.tm_zone.map { String(cString: $0) } ?? ""
        return (Int(parts.tm_gmtoff), zone)
    }

    /// The absolute path of the running program (`/proc/self/exe`), or `nil` where it cannot be
    /// read.
    package static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Replaces this process with the program at `path`, run with `arguments` (the first is its
    /// name); returns the `errno` that stopped it only when it could not be started.
    package static func execute(_ path: String, arguments: [String]) -> Int32 {
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        execv(path, argv)
        return errno
    }

    /// The system's sentence for `errno` value `code` (`strerror`).
    package static func errorDescription(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Ends the process with `status`, flushing standard I/O (`exit(3)`).
    package static func exit(_ status: Int32) -> Never {
        #if canImport(Glibc)
        Glibc.exit(status)
        #elseif canImport(Musl)
        Musl.exit(status)
        #else
        Darwin.exit(status)
        #endif
    }

    /// Removes `path` and everything below it, ignoring what cannot be removed.
    package static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR, let directory = opendir(path) {
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(directory)
            for name in names { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// Runs this program again with `arguments`, its stderr discarded, and returns its exit status
    /// and standard output; `nil` when it cannot be started.
    package static func runSelf(_ arguments: [String]) -> (status: Int32, output: [UInt8])? {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let executable = "/proc/self/exe"
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, argv, environ)
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            return nil
        }
        let output = readAll(readEnd) ?? []
        close(readEnd)
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        // WIFEXITED / WEXITSTATUS: the low seven bits are zero for a normal exit.
        guard status & 0x7F == 0 else { return nil }
        return ((status >> 8) & 0xFF, output)
    }

    /// Writes all of `bytes` to the descriptor `fd`, retrying on `EINTR`; `false` when a write
    /// fails (`errno` says why).
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }

    /// Writes all of `bytes` (borrowed, not copied: a store's mapping, say) to the descriptor `fd`,
    /// retrying on `EINTR`; `false` when a write fails (`errno` says why).
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var written = 0
        while written < bytes.count {
            let result = write(fd, base + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                return false
            }
            written += result
        }
        return true
    }

    /// Reads `fd` to its end straight into one array sized from `fstat` (for a regular file), so
    /// a secret read this way leaves no stale copy behind in memory the array outgrew.
    private static func readAll(_ fd: Int32) -> [UInt8]? {
        var info = stat()
        let sizeHint = fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : 0
        var bytes = [UInt8](repeating: 0, count: max(sizeHint + 1, 4096))
        var count = 0
        while true {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }
            let result = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if result < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if result == 0 {
                bytes.removeSubrange(count...)
                return bytes
            }
            count += result
        }
    }
}
