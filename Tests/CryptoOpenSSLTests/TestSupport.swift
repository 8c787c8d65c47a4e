import CofferTestSupport
import Foundation

/// Runs the `openssl` command-line tool for interoperability checks.
enum OpenSSLTool {
    /// Runs `openssl arguments`, feeding `input` on stdin, and returns stdout; fails on a
    /// non-zero exit.
    @discardableResult
    static func run(_ arguments: [String], input: [UInt8] = []) throws -> [UInt8] {
        try ToolProcess.output(tool: "openssl", arguments, stdin: input)
    }
}

/// A temporary file removed when the scope ends.
func withTemporaryFile<T>(_ contents: [UInt8], suffix: String = "", _ body: (String) throws -> T) throws -> T {
    let path = TestScratch.path("crypto\(suffix)")
    try Data(contents).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}
