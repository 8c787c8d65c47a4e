import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What one run of a program measured by ``ToolProcess/runMeasuringPeakMemory(_:_:stdoutPath:environment:)``
/// produced.
public struct PeakMemoryRun: Sendable {
    /// The exit status (128 + the signal for a program a signal ended).
    public var status: Int32
    /// The child's peak resident set size in bytes: the last `VmHWM` of `/proc/PID/status` read
    /// before it exited (polled every millisecond; the high-water mark only grows, and a program
    /// frees, not allocates, in its last moment).
    ///
    /// Not `ru_maxrss`: `posix_spawn` runs the child in this process's memory until `exec`, and the
    /// kernel carries that high-water mark over the `exec`, so `wait4` and
    /// `getrusage(RUSAGE_CHILDREN)` would report the test process's own peak.
    public var peakResidentBytes: Int
    /// Standard error as text.
    public var stderr: String
}

extension ToolProcess {
    /// Runs `executable` with `arguments`, its standard output going to the file `stdoutPath` (so
    /// that a large output costs this process nothing), and measures the child's peak resident
    /// memory.
    ///
    /// - Parameter environment: Variables set for the child on top of this process's environment.
    public static func runMeasuringPeakMemory(
        _ executable: URL, _ arguments: [String], stdoutPath: String, environment: [String: String] = [:]
    ) throws -> PeakMemoryRun {
        let errorPath = TestScratch.path("stderr.txt")
        let variables = Self.childEnvironment(adding: environment)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSFilePathErrorKey: executable.path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL)])
        }
        var status: Int32 = 0
        var peak = 0
        while true {
            if let line = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8))?
                .split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kilobytes = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).dropLast(3))
            {
                peak = max(peak, kilobytes * 1024)
            }
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid { break }
            if waited < 0 && errno != EINTR { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL) }
            usleep(1000)
        }
        // WIFEXITED: the low seven bits are zero; else they are the signal.
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let errors = (try? Data(contentsOf: URL(fileURLWithPath: errorPath))) ?? Data()
        return PeakMemoryRun(status: exitStatus, peakResidentBytes: peak, stderr: String(decoding: errors, as: UTF8.self))
    }
}
