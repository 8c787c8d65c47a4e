import ArgumentParser
import KVStorage
import CommandLineSupport

extension Kvstore {
    /// `kvstore list`: every live key, one per line, sorted.
    struct ListCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Print every live key, one per line, in sorted order.")

        @ParentCommand var root: Kvstore

        func run() throws {
            guard let store = try root.globals.openForReading() else { return }
            defer { store.close() }
            let keys: [String]
            do { keys = try store.allKeys() } catch { throw KvstoreToolError(error) }
            guard !keys.isEmpty else { return }
            SystemIO.writeStandardOutput(keys.sorted().joined(separator: "\n") + "\n")
        }
    }
}
