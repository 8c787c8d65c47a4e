import CommandLineSupport
import KVStorage

/// The single error type of the `kvstore` command: an opaque code, a human reason and the context
/// (store path, key name, file, operation). Messages name keys and files, never stored values or
/// crypt-key bytes.
struct KvstoreToolError: CommandLineError {
    /// What kind of failure this is. Each exits 1 (``CommandLineError``'s default); usage errors are
    /// ArgumentParser's `ValidationError`, which exit 64.
    enum Code: String {
        /// A key asked for is absent or expired (exit 1).
        case keyNotFound
        /// The store's files are missing (read-only commands; exit 1).
        case storeNotFound
        /// An error reported by the store (damaged, wrong key, system call, …; exit 1).
        case store
        /// A value given on the command line or in an import file does not parse as its type (exit 1).
        case invalidValue
        /// An input or key file cannot be read, or an environment variable is missing (exit 1).
        case input
        /// The JSON given to `import` is malformed (exit 1).
        case malformedJSON
    }

    let code: Code
    let reason: String
    var key: String?
    var path: String?
    var operation: String?
    /// The store error behind this one, when there is one.
    var underlying: KVStoreError?

    init(_ code: Code, _ reason: String, key: String? = nil, path: String? = nil, operation: String? = nil,
         underlying: KVStoreError? = nil) {
        self.code = code
        self.reason = reason
        self.key = key
        self.path = path
        self.operation = operation
        self.underlying = underlying
    }

    /// Wraps a store error, naming the operation and, where there is one, the way out.
    init(_ error: KVStoreError, operation: String) {
        var reason = error.description
        if let damage = error.damage, !reason.contains(damage.description) { reason += ": \(damage)" }
        if let way = KvstoreToolError.wayOut(error) { reason += "\n  " + way }
        self.init(error.code == .notFound ? .storeNotFound : .store, reason, operation: operation, underlying: error)
    }

    /// What a user can do about `error`, in the command's own terms.
    static func wayOut(_ error: KVStoreError) -> String? {
        switch error.code {
        case .damaged:
            return "the files were left as they are. Ways out: 'kvstore salvage --to DIR' copies what still parses "
                + "into a new store in DIR; '--on-damage recover' keeps what parses and rewrites this store; "
                + "'--on-damage discard' empties it."
        case .inUse:
            return "wait for that process to close the store; a store opened with --single-process is that process's alone."
        case .noSpace:
            return "nothing was written and the store is unchanged; free space on that file system and run the command again."
        default:
            return nil
        }
    }

    var description: String {
        var context: [String] = []
        if let key { context.append("key \"\(key)\"") }
        if let path, !reason.contains(path) { context.append("file \(path)") }
        guard !context.isEmpty else { return reason }
        return reason + " (" + context.joined(separator: ", ") + ")"
    }
}
