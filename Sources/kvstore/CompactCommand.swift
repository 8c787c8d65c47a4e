import ArgumentParser
import KVStorage
import CommandLineSupport

extension Kvstore {
    /// `kvstore compact`: full write-back, then trim.
    struct CompactCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compact",
            abstract: "Rewrite the store without superseded entries and tombstones, then shrink the file.")

        @ParentCommand var root: Kvstore

        func run() throws {
            let store = try root.globals.openForWriting()
            defer { store.close() }
            do {
                let before = try store.statistics()
                try store.trim()
                let after = try store.statistics()
                SystemIO.writeStandardOutput(
                    "compacted: \(after.liveEntries) live entries, \(before.deadEntries) dead entries dropped, "
                        + "file \(before.fileSize) -> \(after.fileSize) bytes\n")
            } catch {
                throw KvstoreToolError(error)
            }
        }
    }
}
