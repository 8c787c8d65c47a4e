import ArgumentParser
import CofferJSON
import KVStorage
import CommandLineSupport

extension Kvstore {
    /// `kvstore stats [--json]`.
    struct StatsCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Print file size, used size, live and dead entries, sequence, CRC state, encryption and expiration.")

        @ParentCommand var root: Kvstore

        @Flag(name: .long, help: "Print one JSON object.")
        var json = false

        func run() throws {
            let store = try root.globals.openExisting()
            defer { store.close() }
            let stats: KVStoreStatistics
            do { stats = try store.statistics() } catch { throw KvstoreToolError(error) }
            let path = store.configuration.dataPath
            SystemIO.writeStandardOutput(json ? StatsCommand.json(stats, path: path) + "\n" : StatsCommand.text(stats, path: path))
        }

        /// The name of a store's encryption.
        static func encryption(_ cipher: KVStoreConfiguration.Cipher?) -> String {
            switch cipher {
            case nil: return "none"
            case .aes128?: return "aes-128-cfb"
            case .aes256?: return "aes-256-cfb"
            }
        }

        static func hex32(_ value: UInt32) -> String {
            let digits = String(value, radix: 16)
            return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
        }

        static func text(_ stats: KVStoreStatistics, path: String) -> String {
            """
            path:          \(path)
            file size:     \(stats.fileSize)
            used size:     \(stats.usedSize)
            live entries:  \(stats.liveEntries)
            expired:       \(stats.expiredEntries)
            dead entries:  \(stats.deadEntries) (\(stats.deadBytes) bytes)
            sequence:      \(stats.sequence)
            crc:           \(hex32(stats.crc)) (\(stats.crcValid ? "valid" : "INVALID"))
            meta version:  \(stats.metaVersion)
            encryption:    \(encryption(stats.cipher))
            expiration:    \(stats.expirationEnabled ? "enabled" : "disabled")

            """
        }

        static func json(_ stats: KVStoreStatistics, path: String) -> String {
            JSONValue(object: [
                ("path", .string(path)),
                ("fileSize", .number(String(stats.fileSize))),
                ("usedSize", .number(String(stats.usedSize))),
                ("actualSize", .number(String(stats.actualSize))),
                ("liveEntries", .number(String(stats.liveEntries))),
                ("expiredEntries", .number(String(stats.expiredEntries))),
                ("deadEntries", .number(String(stats.deadEntries))),
                ("deadBytes", .number(String(stats.deadBytes))),
                ("sequence", .number(String(stats.sequence))),
                ("crc", .string(hex32(stats.crc))),
                ("crcValid", .bool(stats.crcValid)),
                ("metaVersion", .number(String(stats.metaVersion))),
                ("encryption", .string(encryption(stats.cipher))),
                ("expiration", .bool(stats.expirationEnabled)),
            ]).serialized
        }
    }
}
