import CofferTestSupport
import Foundation

/// Runs the built `keytool` (next to the test runner in the build products folder) and captures
/// its output.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var stdoutBytes: [UInt8]
}

enum CLIRunner {
    static let productsDirectory = ToolProcess.productsDirectory
    static let repositoryRoot = ToolProcess.repositoryRoot

    static func fixture(_ relative: String) -> String {
        repositoryRoot.appendingPathComponent("Fixtures").appendingPathComponent(relative).path
    }

    /// Runs `tool` with `arguments`, feeding `stdin` if given.
    static func run(_ arguments: [String], tool: String = "keytool", stdin: [UInt8]? = nil,
                    environment: [String: String] = [:]) throws -> CLIResult {
        let executable = tool.hasPrefix("/") ? URL(fileURLWithPath: tool) : productsDirectory.appendingPathComponent(tool)
        let output = try ToolProcess.run(executable, arguments, stdin: stdin, environment: environment)
        return CLIResult(status: output.status, stdout: output.text, stderr: output.stderr, stdoutBytes: output.stdout)
    }
}
