import Foundation

/// Scratch space for tests: every folder and path it hands out lies in one folder per test
/// process, which is removed when the process exits, so a test run leaves nothing behind in the
/// system's temporary directory (a crashed run leaves that one folder).
public enum TestScratch {
    /// This process's folder, made on first use, with its removal registered for exit.
    private static let root: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("coffer-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { TestScratch.removeAll() }
        return url
    }()

    /// A new empty folder whose name starts with `label`.
    public static func directory(_ label: String) throws -> URL {
        let url = root.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A path no file has yet, ending in `name`, for a program under test to write.
    public static func path(_ name: String) -> String {
        root.appendingPathComponent("\(UUID().uuidString)-\(name)").path
    }

    private static func removeAll() {
        try? FileManager.default.removeItem(at: root)
    }
}
