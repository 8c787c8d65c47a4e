import ArgumentParser
import CofferJSON
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
                """)

        @ParentCommand var root: Kvstore

        @Argument(help: "The key.")
        var key: String

        @Option(name: .long, help: "The value's type (default: guessed from the stored bytes).")
        var type: ValueType?

        @Flag(name: .long, help: "Print {\"key\", \"type\", \"value\"} as JSON.")
        var json = false

        func run() throws {
            guard let store = try root.globals.openForReading() else {
                throw KvstoreToolError(.keyNotFound, "key not found: \(key)", operation: "get")
            }
            defer { store.close() }
            let payload: [UInt8]?
            do { payload = try store.rawValue(forKey: key) } catch { throw KvstoreToolError(error, operation: "get") }
            guard let payload else { throw KvstoreToolError(.keyNotFound, "key not found: \(key)", operation: "get") }
            let type = self.type ?? ValueType.guess(payload)
            if json {
                guard let value = type.jsonValue(payload) else { throw mismatch(type, payload.count) }
                let object = JSONValue(object: [("key", .string(key)), ("type", .string(type.rawValue)), ("value", value)])
                StandardStreams.writeOutput(object.serialized + "\n")
            } else {
                guard let text = type.decode(payload) else { throw mismatch(type, payload.count) }
                StandardStreams.writeOutput(text + "\n")
            }
        }

        private func mismatch(_ type: ValueType, _ count: Int) -> KvstoreToolError {
            KvstoreToolError(.invalidValue, "the \(count)-byte value is not a valid \(type.rawValue)", key: key, operation: "get")
        }
    }
}
