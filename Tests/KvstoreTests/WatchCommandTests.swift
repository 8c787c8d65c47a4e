import CofferTestSupport
import Foundation
import Testing

/// `kvstore watch [KEY]`: other processes' writes as JSON Lines.
///
/// Serialized: each case keeps a watcher running while it starts short-lived `kvstore` runs whose
/// output it reads to the end; one watcher at a time keeps the cases independent.
@Suite("watch command", .serialized)
struct WatchCommandTests {
    /// Reads from `handle` until `text` holds `count` complete lines (blocking reads, no waits).
    static func readLines(_ handle: FileHandle, count: Int, into text: inout String) -> [String] {
        while text.filter({ $0 == "\n" }).count < count {
            let data = handle.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        return text.split(separator: "\n").map(String.init)
    }

    @Test("watch prints the writes of other kvstore processes until it is stopped", .timeLimit(.minutes(1)),
          arguments: [nil, "b"] as [String?])
    func watchOtherProcesses(key: String?) throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try KvstoreRunner.run(["--dir", directory, "set", "a", "1"]).status == 0)

        let watcher = Process()
        watcher.executableURL = KvstoreRunner.productsDirectory.appendingPathComponent("kvstore")
        watcher.arguments = ["--dir", directory, "watch", "--interval", "5"] + (key.map { [$0] } ?? [])
        let output = Pipe()
        let errors = Pipe()
        watcher.standardOutput = output
        watcher.standardError = errors
        try watcher.run()
        defer { if watcher.isRunning { watcher.terminate() } }
        // Writes made before the watcher has loaded the store are no changes to it: wait for its
        // "watching" line first.
        var errorText = ""
        let ready = Self.readLines(errors.fileHandleForReading, count: 1, into: &errorText)
        #expect(ready.first?.hasPrefix("watching ") == true, "\(errorText)")

        for command in [["set", "b", "2", "--type", "int32"], ["delete", "a"], ["set", "b", "3", "--type", "int32"]] {
            #expect(try KvstoreRunner.run(["--dir", directory] + command).status == 0)
        }
        var text = ""
        let expected = key == nil
            ? [#"{"key":"b","kind":"set","byOtherProcess":true}"#, #"{"key":"a","kind":"removed","byOtherProcess":true}"#,
               #"{"key":"b","kind":"set","byOtherProcess":true}"#]
            : [#"{"key":"b","kind":"set","byOtherProcess":true}"#, #"{"key":"b","kind":"set","byOtherProcess":true}"#]
        let lines = Self.readLines(output.fileHandleForReading, count: expected.count, into: &text)
        #expect(lines == expected)
        watcher.terminate()
        watcher.waitUntilExit()
    }
}
