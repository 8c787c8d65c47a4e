import ArgumentParser
import KVStorage

extension Kvstore {
    /// `kvstore delete KEY…`.
    struct DeleteCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Remove keys (absent keys are ignored).")

        @ParentCommand var root: Kvstore

        @Argument(help: "The keys to remove.")
        var keys: [String]

        func validate() throws {
            if keys.isEmpty { throw ValidationError("give at least one KEY") }
        }

        func run() throws {
            let store = try root.globals.openForWriting()
            defer { store.close() }
            do { try store.remove(keys) } catch { throw KvstoreToolError(error) }
        }
    }
}
