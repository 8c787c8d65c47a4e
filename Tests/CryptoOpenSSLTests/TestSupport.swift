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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Write stdin and read the outputs concurrently so large payloads cannot deadlock.
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let errorReader = ErrorCollector(handle: stderr.fileHandleForReading)
        errorReader.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorText = errorReader.finish()
        guard process.terminationStatus == 0 else {
            throw Failure(arguments: arguments, status: process.terminationStatus, standardError: errorText)
        }
        return Array(output)
    }

    /// Reads a pipe on a background thread.
    private final class ErrorCollector: @unchecked Sendable {
        // Safe: `data` is written by the reader thread before `done` is signalled and read only after.
        private let handle: FileHandle
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(handle: FileHandle) { self.handle = handle }

        func start() {
            Thread {
                self.data = self.handle.readDataToEndOfFile()
                self.done.signal()
            }.start()
        }

        func finish() -> String {
            done.wait()
            return String(decoding: data, as: UTF8.self)
        }
    }
}

/// A temporary file removed when the scope ends.
func withTemporaryFile<T>(_ contents: [UInt8], suffix: String = "", _ body: (String) throws -> T) throws -> T {
    let path = NSTemporaryDirectory() + "coffer-crypto-\(UUID().uuidString)\(suffix)"
    try Data(contents).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// Deterministic pseudo-random bytes for test inputs (SplitMix64).
struct TestBytes {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
