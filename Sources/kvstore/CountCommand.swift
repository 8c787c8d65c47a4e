import ArgumentParser
import KVStorage
import CommandLineSupport

extension Kvstore {
    /// `kvstore count`: the number of live keys.
    struct CountCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "count",
            abstract: "Print the number of live keys (0 when the store does not exist).")

        @ParentCommand var root: Kvstore

        func run() throws {
            var count = 0
            if let store = try root.globals.openForReading() {
                defer { store.close() }
                do { count = try store.count() } catch { throw KvstoreToolError(error) }
            }
            SystemIO.writeStandardOutput("\(count)\n")
        }
    }
}
