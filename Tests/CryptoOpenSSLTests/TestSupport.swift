import CofferTestSupport
import Foundation

/// Hex helpers for test vectors.
enum Hex {
    /// Bytes from a hex string; whitespace is ignored.
    static func bytes(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { !$0.isWhitespace }.utf8)
        precondition(digits.count % 2 == 0, "odd hex length")
        var output: [UInt8] = []
        output.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            output.append(nibble(digits[index]) << 4 | nibble(digits[index + 1]))
            index += 2
        }
        return output
    }

    /// Lowercase hex of `bytes`.
    static func string(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func nibble(_ digit: UInt8) -> UInt8 {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: preconditionFailure("bad hex digit")
        }
    }
}

/// Runs the `openssl` command-line tool for interoperability checks.
enum OpenSSLTool {
    struct Failure: Error, CustomStringConvertible {
        var arguments: [String]
        var status: Int32
        var standardError: String
        var description: String { "openssl \(arguments.joined(separator: " ")) exited \(status): \(standardError)" }
    }

    /// Runs `openssl arguments`, feeding `input` on stdin, and returns stdout.
    @discardableResult
    static func run(_ arguments: [String], input: [UInt8] = []) throws -> [UInt8] {
        let output = try ToolProcess.run(tool: "openssl", arguments, stdin: input)
        guard output.status == 0 else {
            throw Failure(arguments: arguments, status: output.status, standardError: output.stderr)
        }
        return output.stdout
    }
}

/// A temporary file removed when the scope ends.
func withTemporaryFile<T>(_ contents: [UInt8], suffix: String = "", _ body: (String) throws -> T) throws -> T {
    let path = NSTemporaryDirectory() + "coffer-crypto-\(UUID().uuidString)\(suffix)"
    try Data(contents).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}
