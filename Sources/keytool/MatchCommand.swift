import ArgumentParser
import AsymmetricKeys
import CofferJSON
import KeytoolSupport

extension Keytool {
    /// `keytool match FILE…`: which files hold the same key, one group per line.
    struct MatchCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "match",
            abstract: "Tell which files hold the same key: a private key, its public key in any container, its certificate, its JWK, its authorized_keys line.",
            discussion: """
                Prints one line per distinct key: its SPKI SHA-256 pin, its algorithm, and the files that \
                hold it. A file's key is its only key; in a PKCS#12 file, the private key; in a bundle or \
                a certificate chain, the first. Exit status 0 when every file holds the same key, 1 otherwise \
                (or when a file cannot be read).
                """
        )

        @Argument(help: "Two or more key, certificate or JWK files (- for standard input, once).")
        var files: [String]

        @Flag(help: "Print one JSON object per group (JSON Lines).")
        var json = false

        @OptionGroup var passphrase: PassphraseOptions

        func validate() throws {
            if files.count < 2 { throw ValidationError("give at least two files to compare") }
            if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be given once") }
        }

        /// The files that hold one key.
        struct Group {
            var publicKey: PublicKey
            var files: [String]
        }

        func run() throws {
            var groups: [Group] = []
            var failed = false
            for file in files {
                let publicKey: PublicKey
                do {
                    publicKey = try Self.primaryKey(file, passphrase: passphrase).publicKey()
                } catch {
                    printError(String(describing: error))
                    failed = true
                    continue
                }
                let name = KeyLoader.displayName(file)
                if let index = groups.firstIndex(where: { $0.publicKey == publicKey }) {
                    groups[index].files.append(name)
                } else {
                    groups.append(Group(publicKey: publicKey, files: [name]))
                }
            }
            for group in groups {
                if json {
                    var object = JSONObject()
                    object.set("spkiSHA256", group.publicKey.spkiSHA256)
                    object.set("algorithm", group.publicKey.algorithm.rawValue)
                    object.set("curve", group.publicKey.curve?.rawValue)
                    object.set("files", group.files)
                    print(object.line)
                } else {
                    print("\(group.publicKey.spkiSHA256) \(group.publicKey.algorithmDescription): \(group.files.joined(separator: " "))")
                }
            }
            if failed || groups.count != 1 { throw ExitCode(1) }
        }

        /// The key a file stands for.
        static func primaryKey(_ file: String, passphrase: PassphraseOptions) throws -> AsymmetricKey {
            let (_, keys) = try KeyLoader.loadPublicParts(file, passphrase: passphrase)
            if keys.count > 1, keys.allSatisfy({ $0.format == .pkcs12 }), let key = keys.first(where: { $0.key.isPrivate }) {
                return key.key
            }
            guard let first = keys.first else { throw CommandError("\(KeyLoader.displayName(file)): holds no key") }
            return first.key
        }
    }
}
