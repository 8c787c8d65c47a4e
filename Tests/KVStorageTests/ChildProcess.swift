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
