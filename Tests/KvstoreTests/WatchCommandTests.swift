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

        let (watcher, output, errors) = try Self.startWatcher(directory: directory, key: key)
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

    /// Runs `kvstore watch --interval 5` (on `key` alone when given) on the store in `directory`,
    /// with its standard output and error on pipes; the caller terminates it.
    static func startWatcher(directory: String, key: String? = nil) throws -> (Process, Pipe, Pipe) {
        let watcher = Process()
        watcher.executableURL = KvstoreRunner.productsDirectory.appendingPathComponent("kvstore")
        watcher.arguments = ["--dir", directory, "watch", "--interval", "5"] + (key.map { [$0] } ?? [])
        let output = Pipe()
        let errors = Pipe()
        watcher.standardOutput = output
        watcher.standardError = errors
        try watcher.run()
        return (watcher, output, errors)
    }

    /// Starts `kvstore watch` on a store of a few keys, waits for its "watching" line, damages the
    /// data file with `damage` and expects the watcher to exit 1 within 10 seconds, naming the file
    /// and the damage on stderr. The watcher is killed in every case.
    static func expectWatcherFails(_ damage: (String) throws -> Void, reason: String) throws {
        let directory = try TestScratch.directory("kvstore").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for number in 0..<20 {
            #expect(try KvstoreRunner.run(["--dir", directory, "set", "key\(number)", "value \(number)"]).status == 0)
        }
        let dataPath = directory + "/mmkv.default"

        let (watcher, _, errors) = try Self.startWatcher(directory: directory)
        defer { if watcher.isRunning { watcher.terminate() } }
        var errorText = ""
        let ready = Self.readLines(errors.fileHandleForReading, count: 1, into: &errorText)
        try #require(ready.first?.hasPrefix("watching ") == true, "\(errorText)")

        try damage(dataPath)
        let deadline = ContinuousClock.now + .seconds(10)
        while watcher.isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(!watcher.isRunning, "watch did not notice the damage within 10 seconds")
        guard !watcher.isRunning else { return }
        errorText += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(watcher.terminationStatus == 1, "\(errorText)")
        #expect(errorText.contains("kvstore: error: "), "\(errorText)")
        #expect(errorText.contains(dataPath), "\(errorText)")
        #expect(errorText.contains(reason), "\(errorText)")
        #expect(!errorText.contains("value 1"), "no stored value in the message")
    }

    @Test("watch exits 1 naming the file when its data file is truncated under it", .timeLimit(.minutes(1)))
    func truncatedUnderWatch() throws {
        try Self.expectWatcherFails({ path in
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.truncate(atOffset: 40)
            try handle.close()
        }, reason: "damaged")
    }

    @Test("watch exits 1 naming the file when bytes of its data file are overwritten so the CRC fails", .timeLimit(.minutes(1)))
    func overwrittenUnderWatch() throws {
        try Self.expectWatcherFails({ path in
            let handle = try #require(FileHandle(forUpdatingAtPath: path))
            try handle.seek(toOffset: 12)
            try handle.write(contentsOf: Data([0x5A, 0x5A, 0x5A, 0x5A]))
            try handle.close()
        }, reason: "CRC")
    }
}
