import ASN1Kit
import ArgumentParser
import CofferJSON
import KVStorage
import CommandLineSupport

extension Kvstore {
    /// `kvstore dump [--history] [--json]`: every key with its raw payload and every plausible
    /// decoding; with `--history`, every entry of the log in file order.
    struct DumpCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dump",
            abstract: "Print every key with its raw value bytes and their plausible decodings.",
            discussion: """
                Keys are sorted. --json prints one JSON object per key (JSON Lines) with key, raw_hex, \
                raw_len, expireAt (stores with expiration), guess {type, value, confidence, reason} and decodings \
                {type: value} for every type the bytes are a valid value of. MMKV records no types: the guess \
                is the most plausible type, with a confidence from 0.1 to 0.95, never certain. The single byte 00 is \
                an empty string, empty bytes, false and 0 alike: its guess is "ambiguous" with the value "" (as \
                'kvstore get' prints it), and its decodings list every reading.

                --history lists every entry of the log in file order instead, superseded values and \
                tombstones included (they stay in the file until compaction), each with its offset and its \
                state: live, superseded (a later entry sets the key again), deleted (a tombstone, or a value \
                a tombstone removed) or expired. --json adds offset, size, state and tombstone to each object.
                """)

        @ParentCommand var root: Kvstore

        @Flag(name: .long, help: "Print JSON Lines.")
        var json = false

        @Flag(name: .long, help: "Every entry in file order, superseded values and tombstones included.")
        var history = false

        func run() throws {
            guard let store = try root.globals.openForReading() else { return }
            defer { store.close() }
            if history { return try runHistory(store) }
            let entries: [KVStoreEntry]
            do { entries = try store.entries() } catch { throw KvstoreToolError(error) }
            var output = ""
            for entry in entries.sorted(by: { $0.key < $1.key }) {
                let guess = TypeGuess(entry.payload)
                let decodings = DumpCommand.decodings(entry.payload)
                if json {
                    var object = JSONObject()
                    object.set("key", entry.key)
                    object.set("raw_hex", Hex.encode(entry.payload))
                    object.set("raw_len", entry.payload.count)
                    object.set("expireAt", entry.expireAt)
                    object.set("guess", guess.json(entry.payload))
                    object.set("decodings", JSONValue(object: decodings.map { ($0.type.rawValue, $0.value) }))
                    output += object.line + "\n"
                } else {
                    var line = "\(JSONValue.string(entry.key).serialized) (\(entry.payload.count) bytes): \(Hex.encode(entry.payload))"
                    if let expireAt = entry.expireAt, expireAt != 0 { line += " expires at \(expireAt)" }
                    output += line + "\n"
                    output += "  guess: \(guess.text(entry.payload))\n"
                    for decoding in decodings where guess.isAmbiguous || decoding.type != guess.type {
                        output += "  \(decoding.type.rawValue): \(decoding.value.serialized)\n"
                    }
                }
            }
            SystemIO.writeStandardOutput(output)
        }

        /// `--history`: one line (or JSON object) per log entry, in file order.
        private func runHistory(_ store: KVStore) throws {
            let entries: [KVStoreHistoryEntry]
            do { entries = try store.history() } catch { throw KvstoreToolError(error) }
            var output = ""
            for entry in entries {
                let guess = entry.isTombstone ? nil : TypeGuess(entry.payload)
                if json {
                    var object = JSONObject()
                    object.set("offset", entry.offset)
                    object.set("size", entry.size)
                    object.set("key", entry.key)
                    object.set("state", entry.state.rawValue)
                    object.set("tombstone", entry.isTombstone)
                    object.set("raw_hex", Hex.encode(entry.payload))
                    object.set("raw_len", entry.payload.count)
                    object.set("expireAt", entry.expireAt)
                    object.set("guess", guess?.json(entry.payload))
                    output += object.line + "\n"
                } else {
                    var line = "@\(entry.offset) \(entry.state.rawValue) \(JSONValue.string(entry.key).serialized)"
                    if let guess {
                        line += " (\(entry.payload.count) bytes): \(Hex.encode(entry.payload))"
                        line += " guess: \(guess.text(entry.payload))"
                    } else {
                        line += " tombstone"
                    }
                    if let expireAt = entry.expireAt, expireAt != 0 { line += " expires at \(expireAt)" }
                    output += line + "\n"
                }
            }
            SystemIO.writeStandardOutput(output)
        }

        /// Every type (but `raw`) that `payload` is a valid value of, with that value as JSON.
        static func decodings(_ payload: [UInt8]) -> [(type: ValueType, value: JSONValue)] {
            ValueType.allCases.compactMap { type in
                guard type != .raw, let value = type.jsonValue(payload) else { return nil }
                return (type, value)
            }
        }
    }
}
