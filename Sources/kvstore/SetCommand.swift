import ArgumentParser
import KVStorage
import CommandLineSupport

extension Kvstore {
    /// `kvstore set KEY VALUE [--type T] [--expire SECONDS]`, or `--value-file F` instead of VALUE.
    struct SetCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Store a value under a key.",
            discussion: """
                Types: string (default), bytes (hex, or the raw contents of --value-file), int32, uint32, \
                int64, uint64, bool, float, double, strings (a JSON array of strings), raw (the payload \
                bytes in hex, stored as they are). --expire turns on expiration for the store if it is off \
                (existing values then never expire).
                """)

        @ParentCommand var root: Kvstore

        @Argument(help: "The key.")
        var key: String

        /// Collects unrecognised dashed words too, so negative numbers (`-5`, `-0.75`) are values.
        @Argument(parsing: .allUnrecognized, help: "The value in the text form of its type (negative numbers allowed).")
        var values: [String] = []

        var value: String? { values.first }

        @Option(name: .long, help: "The value's type.")
        var type: ValueType = .string

        @Option(name: .customLong("value-file"), help: ArgumentHelp("Read the value from this file (bytes: its raw contents; other types: its text).", valueName: "file"))
        var valueFile: String?

        @Option(name: .long, help: ArgumentHelp("Seconds until the value expires (0 = never).", valueName: "seconds"))
        var expire: UInt32?

        func validate() throws {
            if key.isEmpty { throw ValidationError("the key cannot be empty") }
            if values.count > 1 { throw ValidationError("unexpected arguments after the value") }
            switch (value, valueFile) {
            case (nil, nil): throw ValidationError("give a VALUE or --value-file")
            case (.some, .some): throw ValidationError("give either a VALUE or --value-file, not both")
            default: break
            }
        }

        func run() throws {
            let payload = try payload()
            let store = try root.globals.openForWriting()
            defer { store.close() }
            do {
                if let expire {
                    if !(try store.isExpirationEnabled()) { try store.enableExpiration() }
                    try store.setRaw(payload, forKey: key, expireAfter: expire)
                } else {
                    try store.setRaw(payload, forKey: key)
                }
            } catch {
                throw KvstoreToolError(error)
            }
        }

        private func payload() throws(KvstoreToolError) -> [UInt8] {
            guard let valueFile else { return try type.encode(value ?? "", key: key) }
            guard let contents = SystemIO.readFile(valueFile) else {
                throw KvstoreToolError("cannot read the value file", key: key, path: valueFile)
            }
            switch type {
            case .bytes: return KVStoreValueCodec.encode(bytes: [UInt8](contents))
            case .string:
                guard let text = String(validating: [UInt8](contents), as: UTF8.self) else {
                    throw KvstoreToolError("the value file is not valid UTF-8", key: key, path: valueFile)
                }
                return KVStoreValueCodec.encode(text)
            default:
                var text = String(decoding: contents, as: UTF8.self)
                while text.last?.isNewline == true { text.removeLast() }
                return try type.encode(text, key: key)
            }
        }
    }
}
