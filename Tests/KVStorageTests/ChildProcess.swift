import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Re-invokes this test binary so that one `@Test` acts as a child process (a writer to be killed,
/// or a multi-process worker). The child test is enabled only when its environment variable is set.
enum ChildProcess {
    /// The path of the running test executable.
    static var executable: String {
        #if os(Linux)
        return (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        #else
        return CommandLine.arguments[0]
        #endif
    }

    /// Starts the test named `filter` in a new process with `environment` added.
    static func start(filter: String, environment: [String: String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name]
    }

    /// Appends a line to `path` with one `write(2)` (survives the process being killed).
    static func appendLine(_ line: String, fd: Int32) {
        var text = line + "\n"
        text.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
    }
}

/// A tiny deterministic generator (SplitMix64), so parent and child derive the same operations.
struct SplitMix64 {
    var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
