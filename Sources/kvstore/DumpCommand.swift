import ArgumentParser
import KVStorage

extension Kvstore {
    /// `kvstore dump [--json]`: every key with its raw payload and every plausible decoding.
    struct DumpCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dump",
            abstract: "Print every key with its raw value bytes and their plausible decodings.",
            discussion: """
                Keys are sorted. --json prints one JSON object per key (JSON Lines) with key, raw_hex, \
                raw_len, expireAt (stores with expiration), guess {type, value} and decodings {type: value} \
                for every type the bytes are a valid value of.
                """)

        @ParentCommand var root: Kvstore

        @Flag(name: .long, help: "Print JSON Lines.")
        var json = false

        func run() throws {
            guard let store = try root.globals.openForReading() else { return }
            defer { store.close() }
            let entries: [KVStoreEntry]
            do { entries = try store.entries() } catch { throw KvstoreToolError(error, operation: "dump") }
            var output = ""
            for entry in entries.sorted(by: { $0.key < $1.key }) {
                let guess = ValueType.guess(entry.payload)
                let decodings = DumpCommand.decodings(entry.payload)
                if json {
                    var members: [(String, JSONValue)] = [
                        ("key", .string(entry.key)),
                        ("raw_hex", .string(HexCoding.encode(entry.payload))),
                        ("raw_len", .number(String(entry.payload.count))),
                    ]
                    if let expireAt = entry.expireAt { members.append(("expireAt", .number(String(expireAt)))) }
                    members.append(("guess", .object([("type", .string(guess.rawValue)), ("value", guess.jsonValue(entry.payload) ?? .null)])))
                    members.append(("decodings", .object(decodings.map { ($0.type.rawValue, $0.value) })))
                    output += JSONValue.object(members).text + "\n"
                } else {
                    var line = "\(JSONValue.string(entry.key).text) (\(entry.payload.count) bytes): \(HexCoding.encode(entry.payload))"
                    if let expireAt = entry.expireAt, expireAt != 0 { line += " expires at \(expireAt)" }
                    output += line + "\n"
                    output += "  guess: \(guess.rawValue) \((guess.jsonValue(entry.payload) ?? .null).text)\n"
                    for decoding in decodings where decoding.type != guess {
                        output += "  \(decoding.type.rawValue): \(decoding.value.text)\n"
                    }
                }
            }
            StandardStreams.writeOutput(output)
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
