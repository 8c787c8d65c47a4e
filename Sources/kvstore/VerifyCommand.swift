import ArgumentParser
import KVStorage
import CommandLineSupport

extension Kvstore {
    /// `kvstore verify`: checks the files without changing them.
    struct VerifyCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check the store's CRC and structure without changing it.",
            discussion: "Exit 0 and a summary when the store is sound; exit 1 with exactly what is wrong otherwise.")

        @ParentCommand var root: Kvstore

        func run() throws {
            let configuration = try root.globals.configuration(.readOnly)
            let stats: KVStoreStatistics
            do {
                stats = try KVStore.verify(configuration)
            } catch where error.code == .notFound {
                throw KvstoreToolError("no store at \(configuration.dataPath)")
            } catch {
                throw KvstoreToolError(error)
            }
            SystemIO.writeStandardOutput(
                "ok: \(configuration.dataPath): \(stats.liveEntries) live entries, \(stats.usedSize) of \(stats.fileSize) bytes used, "
                    + "crc \(StatsCommand.hex32(stats.crc)), encryption \(StatsCommand.encryption(stats.cipher))\n")
        }
    }
}
