import Foundation

/// Temporary directories for the engines' files, under one per-run root that is removed at exit.
enum ScratchDirectory {
    /// The run's root directory.
    static let root: String = {
        let path = NSTemporaryDirectory() + "coffer-store-bench-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: ScratchDirectory.root) }
        return path
    }()

    /// A new empty directory under the root.
    static func make(_ name: String) -> String {
        let path = root + "/" + name + "-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
