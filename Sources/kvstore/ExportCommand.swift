import ArgumentParser
import CofferJSON
import KVStorage
import CommandLineSupport

extension Kvstore {
    /// `kvstore export`: the store as one JSON object of typed values.
    struct ExportCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Print the store as JSON: {\"KEY\": {\"type\": T, \"value\": V}, …}.",
            discussion: """
                MMKV files record no types, so each value's type is guessed so that its value encodes back \
                to exactly the stored bytes: 00/01 → bool; a length-prefixed printable UTF-8 string → \
                string; a length-prefixed list of them → strings; 4 bytes reading as a float with at most 6 \
                significant digits → float, 8 bytes as a double with at most 12 → double; one varint → \
                int64; other length-prefixed bytes → bytes (hex); other 4 or 8 bytes → float or double; \
                anything else → raw (hex). \
                'kvstore import' of the output therefore restores every payload byte for byte. Keys are \
                sorted; values with an expiration carry "expireAt" (Unix seconds).
                """)

        @ParentCommand var root: Kvstore

        func run() throws {
            var entries: [KVStoreEntry] = []
            if let store = try root.globals.openForReading() {
                defer { store.close() }
                do { entries = try store.entries() } catch { throw KvstoreToolError(error) }
            }
            SystemIO.writeStandardOutput(ExportCommand.json(entries))
        }

        /// The export document: one member per line, keys sorted.
        static func json(_ entries: [KVStoreEntry]) -> String {
            guard !entries.isEmpty else { return "{}\n" }
            var output = "{\n"
            for (index, entry) in entries.sorted(by: { $0.key < $1.key }).enumerated() {
                let type = ValueType.guess(entry.payload)
                var object = JSONObject()
                object.set("type", type.rawValue)
                object.set("value", type.jsonValue(entry.payload) ?? .null)
                object.set("expireAt", entry.expireAt.flatMap { $0 == 0 ? nil : $0 })
                output += "  " + JSONValue.quote(entry.key) + ": " + object.line
                output += index == entries.count - 1 ? "\n" : ",\n"
            }
            return output + "}\n"
        }
    }
}
