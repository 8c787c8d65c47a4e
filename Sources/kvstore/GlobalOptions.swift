import ArgumentParser
import CommandLineSupport
import CryptoOpenSSL
import KVStorage

/// The options every `kvstore` command shares: where the store is and how it is encrypted and shared.
/// Crypt keys come from a file or an environment variable, never from the command line.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store directory (default: $KVSTORE_DIR, else ./mmkv).", valueName: "dir"))
    var dir: String?

    @Option(name: .long, help: ArgumentHelp("The store id: the data file's name (MMKV's default).", valueName: "id"))
    var id: String = "mmkv.default"

    @Option(name: .customLong("crypt-key-file"),
            help: ArgumentHelp("Read the crypt key from this file (one trailing newline is ignored).", valueName: "file"))
    var cryptKeyFile: String?

    @Option(name: .customLong("crypt-key-env"),
            help: ArgumentHelp("Read the crypt key from this environment variable.", valueName: "var"))
    var cryptKeyEnv: String?

    @Flag(name: .customLong("aes256"), help: "The store uses AES-256-CFB (default AES-128-CFB).")
    var aes256 = false

    @Flag(name: .customLong("single-process"), help: ArgumentHelp(
        "Open the store for this process alone: faster, and any other process that opens it meanwhile is refused. By default stores are shared with other processes (flock on the .crc file, as MMKV's multi-process mode)."))
    var singleProcess = false

    @Option(name: .customLong("on-damage"), help: ArgumentHelp(
        "What to do with a damaged store: fail (leave the files as they are), recover (keep what parses, rewrite the store), discard (start empty).",
        valueName: "policy"))
    var onDamage: DamagePolicyArgument = .fail

    func validate() throws {
        if cryptKeyFile != nil && cryptKeyEnv != nil {
            throw ValidationError("give the crypt key with either --crypt-key-file or --crypt-key-env, not both")
        }
        if id.isEmpty { throw ValidationError("--id cannot be empty") }
        if let dir, dir.isEmpty { throw ValidationError("--dir cannot be empty") }
    }

    /// The store directory: `--dir`, else `$KVSTORE_DIR`, else `./mmkv`.
    var directory: String {
        if let dir { return dir }
        if let env = SystemIO.environment("KVSTORE_DIR"), !env.isEmpty { return env }
        return "./mmkv"
    }

    /// The cipher named by `--aes256`.
    var cipher: KVStoreConfiguration.Cipher { aes256 ? .aes256 : .aes128 }

    /// The crypt key given by `--crypt-key-file` or `--crypt-key-env`, or `nil` for a plain store.
    func cryptKey() throws(KvstoreToolError) -> SecureBytes? {
        try CryptKeySource.load(file: cryptKeyFile, environment: cryptKeyEnv)
    }

    /// The configuration of the store these options name.
    func configuration(_ access: KVStoreConfiguration.AccessMode) throws(KvstoreToolError) -> KVStoreConfiguration {
        KVStoreConfiguration(
            directory: directory, id: id, cryptKey: try cryptKey(), cipher: cipher, accessMode: access,
            multiProcess: !singleProcess, onDamage: onDamage.policy)
    }

    /// Opens the store read-write (creating it when needed), refusing wrong keys, and damaged files
    /// unless `--on-damage` says otherwise.
    ///
    /// One load and one CRC pass: the store is checked as it is before it is grown to whole
    /// pages, so a refused open leaves the files exactly as they were.
    func openForWriting() throws(KvstoreToolError) -> KVStore {
        let configuration = try configuration(.readWrite)
        do {
            return try KVStore(configuration)
        } catch {
            throw KvstoreToolError(error)
        }
    }

    /// Opens the store read-only, or returns `nil` when its files do not exist.
    func openForReading() throws(KvstoreToolError) -> KVStore? {
        let configuration = try configuration(.readOnly)
        guard SystemIO.fileExists(configuration.dataPath) else { return nil }
        do {
            return try KVStore(configuration)
        } catch where error.code == .notFound {
            return nil
        } catch {
            throw KvstoreToolError(error)
        }
    }

    /// Opens the store read-only, failing when it does not exist.
    func openExisting() throws(KvstoreToolError) -> KVStore {
        guard let store = try openForReading() else {
            let path = (try? configuration(.readOnly).dataPath) ?? directory + "/" + id
            throw KvstoreToolError("no store at \(path)", path: path)
        }
        return store
    }
}

/// Reads crypt keys: ``SecretInput`` in kvstore's words.
enum CryptKeySource {
    /// The key from `file` or the environment variable `environment` (at most one is set), or `nil`
    /// when neither is. A key file's single trailing newline (`\n` or `\r\n`) is not part of the key.
    static func load(file: String?, environment: String?) throws(KvstoreToolError) -> SecureBytes? {
        let key: SecureBytes
        if let file {
            guard let contents = SecretInput.file(file, .wholeFile) else {
                throw KvstoreToolError("cannot read the crypt key file", path: file)
            }
            key = contents
        } else if let environment {
            guard let value = SecretInput.environment(environment) else {
                throw KvstoreToolError("the environment variable \(environment) is not set")
            }
            key = value
        } else {
            return nil
        }
        guard !key.isEmpty else {
            throw KvstoreToolError("the crypt key is empty", path: file)
        }
        return key
    }
}

/// `--on-damage`: the store's damage policy, by name.
enum DamagePolicyArgument: String, ExpressibleByArgument, CaseIterable {
    case fail, recover, discard

    var policy: KVStoreConfiguration.DamagePolicy {
        switch self {
        case .fail: return .fail
        case .recover: return .recover
        case .discard: return .discard
        }
    }
}
