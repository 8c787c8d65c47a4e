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
                When the CRC matches, every entry is kept as it is. Otherwise nothing is intact by assertion: \
                every entry is checked against the shapes MMKV writes (a printable UTF-8 key; a varint, 4 or 8 \
                bytes, or a length-prefixed string), misparses that swallow their successors are dropped, the \
                scan resynchronises past damage, and entries that cannot be confirmed are kept but reported as \
                uncertain. The last value of each key wins, tombstones delete, expired values are left out. The \
                new store has the same id and crypt key; the damaged files are only read, never changed. \
                Exit 0 only when the copy is complete (the CRC matches and nothing is damaged); otherwise the \
                report names the damaged byte ranges, the lost and the uncertain keys, and the exit status is 1. \
                --json prints one object: dataPath, liveKeys, complete, crcMatches, hasMeta, regionEnd, \
                recordedEnd, regionSource, intactPrefixEnd, damagedRanges [[start, end]], lostKeys, \
                uncertainKeys and entries [{offset, size, key, tombstone, afterDamage, uncertainty}].
                """)

        @ParentCommand var root: Kvstore

        @Option(name: .customLong("to"), help: ArgumentHelp("The directory to write the salvaged store to.", valueName: "dir"))
        var target: String

        @Flag(name: .long, help: "Print the report as JSON.")
        var json = false

        /// The report as the `--json` object.
        static func json(_ report: KVStoreSalvageReport) -> JSONValue {
            func number(_ value: Int) -> JSONValue { .number(String(value)) }
            func strings(_ values: [String]) -> JSONValue { .array(values.map { JSONValue.string($0) }) }
            let ranges: [JSONValue] = report.damagedRanges.map { .array([number($0.lowerBound), number($0.upperBound)]) }
            let entries: [JSONValue] = report.entries.map { (entry: KVStoreSalvageReport.Entry) -> JSONValue in
                let uncertainty: JSONValue = entry.uncertainty.map { JSONValue.string($0) } ?? .null
                return JSONValue(object: [
                    ("offset", number(entry.offset)), ("size", number(entry.size)),
                    ("key", .string(entry.key)), ("tombstone", .bool(entry.isTombstone)),
                    ("afterDamage", .bool(entry.afterDamage)), ("uncertainty", uncertainty),
                ])
            }
            let members: [(String, JSONValue)] = [
                ("dataPath", .string(report.dataPath)),
                ("liveKeys", number(report.liveKeys)),
                ("complete", .bool(report.isComplete)),
                ("crcMatches", .bool(report.crcMatches)),
                ("hasMeta", .bool(report.hasMeta)),
                ("regionEnd", number(report.regionEnd)),
                ("recordedEnd", number(report.recordedEnd)),
                ("regionSource", .string(report.regionSource)),
                ("intactPrefixEnd", number(report.intactPrefixEnd)),
                ("damagedRanges", .array(ranges)),
                ("lostKeys", strings(report.lostKeys)),
                ("uncertainKeys", strings(report.uncertainKeys)),
                ("entries", .array(entries)),
            ]
            return JSONValue(object: members)
        }

        /// The report as text: what was written, what the CRC says, the damaged ranges, and the
        /// lost and uncertain keys (quoted as JSON strings, so that any key prints on one line).
        static func text(_ report: KVStoreSalvageReport) -> String {
            func quoted(_ keys: some Sequence<String>) -> String { keys.map { JSONValue.string($0).serialized }.joined(separator: ", ") }
            let afterDamage = report.entries.filter(\.afterDamage).count
            var output = "salvaged \(report.liveKeys) live keys to \(report.dataPath)\n"
            output += "scanned bytes 4..<\(report.regionEnd) (size from the \(report.regionSource)); "
            output += report.crcMatches && report.damagedRanges.isEmpty ? "the CRC matches: nothing inside is damaged\n"
                : report.crcMatches ? "the CRC matches but the data does not parse throughout (a wrong crypt key?): every entry was checked\n"
                : report.hasMeta ? "the CRC does not match: nothing is intact by assertion, every entry was checked\n"
                : "there is no meta file (.crc): nothing can be confirmed, every entry was checked\n"
            output += "\(report.entries.count - afterDamage) entries before the first damage (up to offset \(report.intactPrefixEnd))"
            output += afterDamage > 0 ? ", \(afterDamage) more after damage\n" : "\n"
            for range in report.damagedRanges {
                if range.upperBound > report.regionEnd {
                    let missing = max(range.lowerBound, report.regionEnd)
                    if range.lowerBound < missing { output += "damaged bytes \(range.lowerBound)..<\(missing): they do not parse as entries\n" }
                    output += "missing bytes \(missing)..<\(range.upperBound): the file ends before its recorded size\n"
                } else {
                    output += "damaged bytes \(range.lowerBound)..<\(range.upperBound): they do not parse as entries\n"
                }
            }
            if !report.damagedRanges.isEmpty {
                output += "keys stored in damaged bytes are named below only where their key still reads\n"
            }
            if !report.lostKeys.isEmpty {
                output += "lost keys (their entries are damaged; not in the new store, or only an older value): \(quoted(report.lostKeys))\n"
            }
            if !report.uncertainKeys.isEmpty {
                // Grouped by reason: the last entry of each uncertain key says why.
                var reasons: [String: String] = [:]
                for entry in report.entries { reasons[entry.key] = entry.uncertainty }
                var groups: [(reason: String, keys: [String])] = []
                for key in report.uncertainKeys {
                    let reason = reasons[key] ?? "unconfirmed"
                    if let index = groups.firstIndex(where: { $0.reason == reason }) { groups[index].keys.append(key) } else { groups.append((reason, [key])) }
                }
                for group in groups {
                    output += "uncertain keys, kept but unconfirmed (\(group.reason)): \(quoted(group.keys))\n"
                }
            }
            return output
        }

        func validate() throws {
            if target.isEmpty { throw ValidationError("--to cannot be empty") }
        }

        func run() throws {
            let configuration = try root.globals.configuration(.readOnly)
            let report: KVStoreSalvageReport
            do {
                report = try KVStore.salvage(configuration, toDirectory: target)
            } catch where error.code == .notFound {
                throw KvstoreToolError("no store at \(configuration.dataPath)")
            } catch {
                throw KvstoreToolError(error)
            }
            if json {
                SystemIO.writeStandardOutput(Self.json(report).serialized + "\n")
            } else {
                SystemIO.writeStandardOutput(Self.text(report))
            }
            guard report.isComplete else {
                var losses: [String] = []
                if !report.damagedRanges.isEmpty { losses.append("\(report.damagedRanges.count) damaged byte range(s)") }
                if !report.lostKeys.isEmpty { losses.append("\(report.lostKeys.count) lost key(s)") }
                if !report.uncertainKeys.isEmpty { losses.append("\(report.uncertainKeys.count) uncertain key(s)") }
                if losses.isEmpty { losses.append(report.hasMeta ? "the CRC does not match" : "no CRC to check against") }
                throw KvstoreToolError(
                    "the salvage is incomplete: " + losses.joined(separator: ", ") + "; the new store holds what could be recovered",
                    path: configuration.dataPath)
            }
        }
    }
}
