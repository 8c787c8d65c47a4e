import Foundation

/// What one run of a program produced.
public struct ToolOutput: Sendable {
    public var status: Int32
    public var stdout: [UInt8]
    public var stderr: String

    /// Standard output as UTF-8 text.
    public var text: String { String(decoding: stdout, as: UTF8.self) }
}

/// Runs programs for the tests — Coffer's own command-line tools from the build products folder,
/// and `openssl`, `ssh-keygen` and the like from the `PATH` — and captures their output.
public enum ToolProcess {
    /// The build products folder: where the test runner, `keytool` and `kvstore` are.
    public static let productsDirectory: URL =
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()

    /// The repository's root folder.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `executable` with `arguments`.
    ///
    /// Standard input (`stdin`, or nothing), standard output and standard error are served at the
    /// same time, so a child that fills one pipe while waiting on another cannot block.
    ///
    /// - Parameters:
    ///   - environment: Variables set for the child on top of this process's environment.
    ///   - removingEnvironment: Variables of this process the child must not see.
    public static func run(
        _ executable: URL, _ arguments: [String], stdin: [UInt8]? = nil,
        environment: [String: String] = [:], removingEnvironment: [String] = []
    ) throws -> ToolOutput {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = childEnvironment(adding: environment, removing: removingEnvironment)
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let writer = Thread {
            if let stdin { input.fileHandleForWriting.write(Data(stdin)) }
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let errorReader = PipeReader(errors.fileHandleForReading)
        let standardOutput = output.fileHandleForReading.readDataToEndOfFile()
        let standardError = errorReader.finish()
        process.waitUntilExit()
        return ToolOutput(status: process.terminationStatus, stdout: Array(standardOutput),
                          stderr: String(decoding: standardError, as: UTF8.self))
    }

    /// Runs the program `name` found on the `PATH` (through `/usr/bin/env`).
    public static func run(
        tool name: String, _ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String] = [:]
    ) throws -> ToolOutput {
        try run(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, stdin: stdin, environment: environment)
    }

    /// The proxy variables `keytool fetch` follows as curl does (`ProxySettings.fromEnvironment`).
    public static let proxyVariables = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"]

    /// A child's environment: this process's, without `removing` and without the proxy variables
    /// (a machine behind a proxy, such as a CI runner, must not route the tests' loopback servers
    /// through it), then `adding` on top (a test that wants a proxy variable passes it here).
    public static func childEnvironment(adding: [String: String] = [:], removing: [String] = []) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in removing + proxyVariables { environment.removeValue(forKey: name) }
        environment.merge(adding) { $1 }
        return environment
    }

    /// A program that exited with a status other than 0.
    public struct Failure: Error, CustomStringConvertible {
        public let command: [String]
        public let status: Int32
        public let stderr: String

        public var description: String { "\(command.joined(separator: " ")) exited \(status): \(stderr)" }
    }

    /// Runs the program `name` found on the `PATH` and returns its standard output; an exit
    /// status other than 0 throws ``Failure`` with its standard error.
    @discardableResult
    public static func output(tool name: String, _ arguments: [String], stdin: [UInt8]? = nil) throws -> [UInt8] {
        let result = try run(tool: name, arguments, stdin: stdin)
        guard result.status == 0 else { throw Failure(command: [name] + arguments, status: result.status, stderr: result.stderr) }
        return result.stdout
    }

    /// Reads a pipe to its end on a thread of its own.
    private final class PipeReader: @unchecked Sendable {
        // Safe: `data` is written by the reader thread before `done` is signalled and read only after.
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            Thread {
                self.data = handle.readDataToEndOfFile()
                self.done.signal()
            }.start()
        }

        func finish() -> Data {
            done.wait()
            return data
        }
    }
}
