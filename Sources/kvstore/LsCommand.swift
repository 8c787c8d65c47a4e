import ArgumentParser
import CofferJSON
import KVStorage
import CommandLineSupport

extension Kvstore {
    /// `kvstore ls [DIR] [--json]`: every store in a directory.
    struct LsCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ls",
            abstract: "List every store in a directory, MMKV's specialCharacter/ ones included.",
            discussion: """
                One line per store: its id (the MD5 name for ids with special characters), data file size, \
                live keys ("-" when they cannot be counted without the crypt key), whether it looks encrypted \
                (a guess: no key is used), whether expiration is on, and why it does not load when it does not. \
                --json prints one object per store (JSON Lines) with id, path, hashedID, fileSize, actualSize, \
                liveKeys (absent when unknown), probablyEncrypted, expiration and problem (absent when none).
                """)

        @ParentCommand var root: Kvstore

        @Argument(help: ArgumentHelp("The directory (default: the --dir of the store options).", valueName: "dir"))
        var directory: String?

        @Flag(name: .long, help: "Print JSON Lines.")
        var json = false

        func run() throws {
            let folder = directory ?? root.globals.directory
            let listings: [KVStoreListing]
            do { listings = try KVStore.list(directory: folder) } catch { throw KvstoreToolError(error) }
            var output = ""
            for listing in listings {
                if json {
                    var object = JSONObject()
                    object.set("id", listing.id)
                    object.set("path", listing.relativePath)
                    object.set("hashedID", listing.isHashedID)
                    object.set("fileSize", listing.fileSize)
                    object.set("actualSize", listing.actualSize)
                    object.set("liveKeys", listing.liveKeys)
                    object.set("probablyEncrypted", listing.probablyEncrypted)
                    object.set("expiration", listing.expirationEnabled)
                    object.set("problem", listing.problem)
                    output += object.line + "\n"
                } else {
                    var line = "\(listing.relativePath)  \(listing.fileSize) bytes  "
                    line += listing.liveKeys.map { "\($0) key\($0 == 1 ? "" : "s")" } ?? "- keys"
                    line += listing.probablyEncrypted ? "  encrypted (guessed)" : "  plain"
                    line += listing.expirationEnabled ? "  expiration on" : "  expiration off"
                    if let problem = listing.problem { line += "  DAMAGED: \(problem)" }
                    output += line + "\n"
                }
            }
            SystemIO.writeStandardOutput(output)
        }
    }
}
