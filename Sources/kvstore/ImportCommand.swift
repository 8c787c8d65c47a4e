import ArgumentParser
import CofferJSON
import KVStorage
import CommandLineSupport

extension Kvstore {
    /// `kvstore import FILE|-`: sets every key of a JSON object.
    struct ImportCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Set every key of a JSON object read from FILE or stdin (-).",
            discussion: """
                Values are strings (stored as strings) or {"type": T, "value": V} with T a --type name of \
                'kvstore set' (bytes and raw as hex, numbers as JSON numbers or strings, strings as an \
                array) and an optional "expireAt" (Unix seconds; already expired values are skipped). \
                Every value is checked before anything is written.
                """)

        @ParentCommand var root: Kvstore

        @Argument(help: "The JSON file, or - for stdin.")
        var file: String

        func run() throws {
            let bytes = try ImportCommand.read(file)
            let document: JSONValue
            do {
                document = try JSONParser.parse(bytes, options: .storeDocuments)
            } catch {
                let place = error.offset.map { " at byte offset \($0)" } ?? ""
                throw KvstoreToolError("malformed JSON\(place): \(error.reason)", path: file)
            }
            guard case let .object(members) = document else {
                throw KvstoreToolError("the JSON document is not an object", path: file)
            }
            var plain: [KVStoreEntry] = []
            var expiring: [(entry: KVStoreEntry, expireAt: UInt32)] = []
            for member in members {
                let key = member.name
                guard !key.isEmpty else { throw KvstoreToolError("an empty key cannot be stored", path: file) }
                let (payload, expireAt) = try ImportCommand.payload(of: member.value, key: key)
                if let expireAt { expiring.append((KVStoreEntry(key: key, payload: payload), expireAt)) } else { plain.append(KVStoreEntry(key: key, payload: payload)) }
            }
            let store = try root.globals.openForWriting()
            defer { store.close() }
            var written = 0
            do {
                written = try store.importEntries(plain)
                if !expiring.isEmpty {
                    let now = store.configuration.clock()
                    if !(try store.isExpirationEnabled()) { try store.enableExpiration() }
                    for (entry, expireAt) in expiring where expireAt > now {
                        try store.setRaw(entry.payload, forKey: entry.key, expireAfter: expireAt - now)
                        written += 1
                    }
                }
            } catch {
                throw KvstoreToolError(error)
            }
            SystemIO.writeStandardOutput("imported \(written) keys\n")
        }

        /// The payload and optional expire-at time of one member's value.
        static func payload(of value: JSONValue, key: String) throws(KvstoreToolError) -> ([UInt8], UInt32?) {
            switch value {
            case let .string(text):
                return (KVStoreValueCodec.encode(text), nil)
            case .object:
                guard case let .string(typeName)? = value["type"], let type = ValueType(rawValue: typeName) else {
                    throw KvstoreToolError("the value has no known \"type\"", key: key)
                }
                guard let inner = value["value"] else {
                    throw KvstoreToolError("the value has no \"value\"", key: key)
                }
                let payload = try type.encode(try type.text(fromJSON: inner, key: key), key: key)
                var expireAt: UInt32?
                if let stamp = value["expireAt"] {
                    guard case let .number(literal) = stamp, let seconds = UInt32(literal) else {
                        throw KvstoreToolError("\"expireAt\" is not a Unix time in seconds", key: key)
                    }
                    expireAt = seconds == 0 ? nil : seconds
                }
                return (payload, expireAt)
            default:
                throw KvstoreToolError("the value is neither a string nor {\"type\", \"value\"}", key: key)
            }
        }

        static func read(_ file: String) throws(KvstoreToolError) -> [UInt8] {
            guard let contents = file == "-" ? SystemIO.readStandardInput() : SystemIO.readFile(file) else {
                throw KvstoreToolError("cannot read the import file", path: file)
            }
            return [UInt8](contents)
        }
    }
}
