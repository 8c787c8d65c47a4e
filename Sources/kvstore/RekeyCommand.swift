import ArgumentParser
import KVStorage

extension Kvstore {
    /// `kvstore rekey (--new-crypt-key-file F | --new-crypt-key-env VAR | --remove-key) [--new-cipher C]`.
    struct RekeyCommand: ParsableCommand {
        /// The cipher of the new key.
        enum CipherName: String, ExpressibleByArgument, CaseIterable {
            case aes128, aes256
        }

        static let configuration = CommandConfiguration(
            commandName: "rekey",
            abstract: "Change, add or remove the store's crypt key (crash-safe).",
            discussion: "The current key is given with the global --crypt-key-file/--crypt-key-env (none for a plain store).")

        @ParentCommand var root: Kvstore

        @Option(name: .customLong("new-crypt-key-file"), help: ArgumentHelp("Read the new crypt key from this file.", valueName: "file"))
        var newCryptKeyFile: String?

        @Option(name: .customLong("new-crypt-key-env"), help: ArgumentHelp("Read the new crypt key from this environment variable.", valueName: "var"))
        var newCryptKeyEnv: String?

        @Flag(name: .customLong("remove-key"), help: "Remove encryption.")
        var removeKey = false

        @Option(name: .customLong("new-cipher"), help: "The new key's cipher (default: the current one, from --aes256).")
        var newCipher: CipherName?

        func validate() throws {
            let given = [newCryptKeyFile != nil, newCryptKeyEnv != nil, removeKey].filter { $0 }.count
            if given != 1 { throw ValidationError("give exactly one of --new-crypt-key-file, --new-crypt-key-env, --remove-key") }
            if removeKey && newCipher != nil { throw ValidationError("--new-cipher needs a new key") }
        }

        func run() throws {
            let newKey = try CryptKeySource.load(file: newCryptKeyFile, environment: newCryptKeyEnv)
            let cipher: KVStoreConfiguration.Cipher = newCipher.map { $0 == .aes256 ? .aes256 : .aes128 } ?? root.globals.cipher
            let store = try root.globals.openForWriting()
            defer { store.close() }
            do { try store.rekey(to: removeKey ? nil : newKey, cipher: cipher) } catch { throw KvstoreToolError(error) }
        }
    }
}
