import ASN1Kit
import ArgumentParser
import CofferJSON
import CommandLineSupport
import KVStorage

extension Kvstore {
    /// `kvstore get KEY [--type T] [--json]`.
    struct GetCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get",
            abstract: "Print the value stored under a key.",
            discussion: """
                Strings print as they are, integers in decimal, floats in the shortest form that reads \
                back exactly, bools as true/false, bytes in lowercase hex. Without --type the most \
                plausible type is guessed (see 'kvstore export --help'). Exit 1 when the key is absent.

                The single byte 00 is an empty string, empty bytes, false and 0 at once (MMKV records no \
                type): without --type it prints as an empty line, with a note on stderr, and --json gives \
                "type": "ambiguous", "value": "" and "candidates" {type: value} for every reading.

                Strings, bytes and raw values are written straight from the store's mapping, so a large \
                value takes no extra memory.
                """)

        @ParentCommand var root: Kvstore

        @Argument(help: "The key.")
        var key: String

        @Option(name: .long, help: "The value's type (default: guessed from the stored bytes; 00 reads as empty).")
        var type: ValueType?

        @Flag(name: .long, help: "Print {\"key\", \"type\", \"value\"} as JSON (\"candidates\" too when the type is ambiguous).")
        var json = false

        /// What printing the value came to (decided under the store's lock, reported after it).
        private enum Outcome: Sendable {
            case printed
            case ambiguous
            case mismatch(ValueType, Int)
        }

        func run() throws {
            guard let store = try root.globals.openForReading() else {
                throw KvstoreToolError("key not found: \(key)")
            }
            defer { store.close() }
            let outcome: Outcome?
            // The payload is printed while it is borrowed from the mapping: no copy of a large value.
            do { outcome = try store.withValue(forKey: key) { printValue($0) } } catch { throw KvstoreToolError(error) }
            switch outcome {
            case nil: throw KvstoreToolError("key not found: \(key)")
            case .printed?: break
            case .ambiguous?: SystemIO.writeStandardError("kvstore: note: \(ValueType.ambiguityNote)\n")
            case let .mismatch(type, count)?:
                throw KvstoreToolError("the \(count)-byte value is not a valid \(type.rawValue)", key: key)
            }
        }

        /// Prints `payload` as the value of `--type` or of its guessed type.
        private func printValue(_ payload: UnsafeRawBufferPointer) -> Outcome {
            if type == nil && ValueType.isAmbiguous(payload) {
                if json {
                    let candidates = DumpCommand.decodings(Array(payload)).map { ($0.type.rawValue, $0.value) }
                    let object = JSONValue(object: [
                        ("key", .string(key)), ("type", .string("ambiguous")), ("value", .string("")),
                        ("candidates", JSONValue(object: candidates)),
                    ])
                    SystemIO.writeStandardOutput(object.serialized + "\n")
                    return .printed
                }
                SystemIO.writeStandardOutput("\n")
                return .ambiguous
            }
            let type = self.type ?? ValueType.guess(payload)
            if json {
                let bytes = Array(payload)
                guard let value = type.jsonValue(bytes) else { return .mismatch(type, payload.count) }
                let object = JSONValue(object: [("key", .string(key)), ("type", .string(type.rawValue)), ("value", value)])
                SystemIO.writeStandardOutput(object.serialized + "\n")
                return .printed
            }
            switch type {
            case .string:
                guard let text = KVStoreValueCodec.decodeStringSlice(payload) else {
                    return .mismatch(type, payload.count)
                }
                _ = SystemIO.writeAll(1, text)
            case .bytes:
                guard let bytes = KVStoreValueCodec.decodeBytesSlice(payload) else { return .mismatch(type, payload.count) }
                Self.writeHex(bytes)
            case .raw:
                Self.writeHex(payload)
            default:
                guard let text = type.decode(Array(payload)) else { return .mismatch(type, payload.count) }
                SystemIO.writeStandardOutput(Array(text.utf8))
            }
            SystemIO.writeStandardOutput([0x0A])
            return .printed
        }

        /// Writes `bytes` to stdout as lowercase hex, 64 KiB of input at a time.
        private static func writeHex(_ bytes: UnsafeRawBufferPointer) {
            let chunk = 64 * 1024
            var start = 0
            while start < bytes.count {
                let end = min(start + chunk, bytes.count)
                let text = Hex.encode(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                guard SystemIO.writeStandardOutput(Array(text.utf8)) else { return }
                start = end
            }
        }
    }
}
