import ArgumentParser
import CofferJSON
import KVStorage
import CommandLineSupport

extension Kvstore {
    /// `kvstore salvage --to DIR [--json]`: what still parses in a damaged store, as a new store.
    struct SalvageCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "salvage",
            abstract: "Write what still parses in a (damaged) store as a new, valid store in another directory.",
            discussion: """
                Keeps the longest prefix of entries that parses and, past damage, every later entry that \
                still parses (marked "after damage"); the last value of each key wins, tombstones delete, \
                expired values are left out. The new store has the same id and crypt key. The damaged files \
                are only read, never changed. --json prints one object: dataPath, liveKeys, crcMatches, \
                regionEnd, regionSource, intactPrefixEnd, damagedRanges [[start, end]] and entries \
                [{offset, size, key, tombstone, afterDamage}].
                """)

        @ParentCommand var root: Kvstore

        @Option(name: .customLong("to"), help: ArgumentHelp("The directory to write the salvaged store to.", valueName: "dir"))
        var target: String

        @Flag(name: .long, help: "Print the report as JSON.")
        var json = false

        func validate() throws {
            if target.isEmpty { throw ValidationError("--to cannot be empty") }
        }

        func run() throws {
            let configuration = try root.globals.configuration(.readOnly)
            let report: KVStoreSalvageReport
            do {
                report = try KVStore.salvage(configuration, toDirectory: target)
            } catch where error.code == .notFound {
                throw KvstoreToolError(.storeNotFound, "no store at \(configuration.dataPath)", operation: "salvage", underlying: error)
            } catch {
                throw KvstoreToolError(error, operation: "salvage")
            }
            let afterDamage = report.entries.filter(\.afterDamage).count
            if json {
                let object = JSONValue(object: [
                    ("dataPath", .string(report.dataPath)),
                    ("liveKeys", .number(String(report.liveKeys))),
                    ("crcMatches", .bool(report.crcMatches)),
                    ("regionEnd", .number(String(report.regionEnd))),
                    ("regionSource", .string(report.regionSource)),
                    ("intactPrefixEnd", .number(String(report.intactPrefixEnd))),
                    ("damagedRanges", .array(report.damagedRanges.map {
                        .array([.number(String($0.lowerBound)), .number(String($0.upperBound))])
                    })),
                    ("entries", .array(report.entries.map { entry in
                        JSONValue(object: [
                            ("offset", .number(String(entry.offset))), ("size", .number(String(entry.size))),
                            ("key", .string(entry.key)), ("tombstone", .bool(entry.isTombstone)),
                            ("afterDamage", .bool(entry.afterDamage)),
                        ])
                    })),
                ])
                SystemIO.writeStandardOutput(object.serialized + "\n")
                return
            }
            var output = "salvaged \(report.liveKeys) live keys to \(report.dataPath)\n"
            output += "scanned bytes 4..<\(report.regionEnd) (size from the \(report.regionSource)); "
            output += report.crcMatches ? "the CRC matches: nothing inside is damaged\n" : "the CRC does not match\n"
            output += "\(report.entries.count - afterDamage) entries in the intact prefix (up to offset \(report.intactPrefixEnd))"
            output += afterDamage > 0 ? ", \(afterDamage) more after damage\n" : "\n"
            for range in report.damagedRanges {
                output += "skipped bytes \(range.lowerBound)..<\(range.upperBound): they do not parse\n"
            }
            SystemIO.writeStandardOutput(output)
        }
    }
}
