import CommandLineSupport
import KVStorage

/// The single error type of the `kvstore` command: a human reason and the context (key name,
/// file). Messages name keys and files, never stored values or crypt-key bytes.
///
/// Every one exits 1 (``CommandLineError``'s default: a failure with valid usage, as a missing key
/// or store, a damaged store, a value that does not parse or an unreadable input); usage errors are
/// ArgumentParser's `ValidationError`, which exit 64.
struct KvstoreToolError: CommandLineError {
    let reason: String
    var key: String?
    var path: String?

    init(_ reason: String, key: String? = nil, path: String? = nil) {
        self.reason = reason
        self.key = key
        self.path = path
    }

    /// Wraps a store error, adding, where there is one, the way out.
    init(_ error: KVStoreError) {
        var reason = error.description
        if let damage = error.damage, !reason.contains(damage.description) { reason += ": \(damage)" }
        if let way = KvstoreToolError.wayOut(error) { reason += "\n  " + way }
        self.init(reason)
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
