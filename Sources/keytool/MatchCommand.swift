import ArgumentParser
import AsymmetricKeys
import CofferJSON
import KeytoolSupport
import KeyCodec

extension Keytool {
    /// `keytool match FILE…`: which files hold the same key, one group per line.
    struct MatchCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "match",
            abstract: "Tell which files hold the same key: a private key, its public key in any container, its certificate, its JWK, its authorized_keys line.",
            discussion: """
                Every key and certificate of every file takes part: a bundle, a certificate chain, an \
                authorized_keys file, a JWK Set, a PKCS#12 or PKCS#7 file give several entries, named \
                FILE[N] (the Nth entry read) where a file has more than one. Prints one line per distinct \
                key: its SPKI SHA-256 pin, its algorithm, and the entries that hold it. Exit status 0 when \
                some key is held by every file, 1 otherwise (or when a file or an entry of one cannot be read, or with \
                --strict when an entry was read with a warning). An entry that cannot be read is one \
                'keytool: error: FILE: line N: reason' line on standard error.
                """
        )

        @Argument(help: "Two or more key, certificate or JWK files (- for standard input, once).")
        var files: [String]

        @Flag(help: "Print one JSON object per group (JSON Lines).")
        var json = false

        @Flag(help: "Exit 1 when an entry cannot be read or was read with a warning.")
        var strict = false

        @OptionGroup var passphrase: PassphraseOptions

        func validate() throws {
            if files.count < 2 { throw ValidationError("give at least two files to compare") }
            if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be given once") }
        }

        /// The entries that hold one key.
        struct Group {
            var publicKey: PublicKey
            /// The names of the entries (`FILE`, or `FILE[N]` in a file of several).
            var entries: [String]
            /// The files those entries are in, each once, in order.
            var files: [String]
        }

        func run() throws {
            var groups: [Group] = []
            var failed = false
            for file in files {
                let name = KeyLoader.displayName(file)
                let result: KeyDecodingResult
                do {
                    result = try KeyLoader.loadPublicParts(file, passphrase: passphrase).result
                } catch {
                    printError(String(describing: error))
                    failed = true
                    continue
                }
                for failure in result.failures { printError(KeyLoader.message(failure, file: name)) }
                if !result.failedEntries.isEmpty { failed = true }
                if strict {
                    let problems = EntryReport.strictProblems(result, file: name)
                    for problem in problems.dropFirst(result.failures.count) { printError(problem) }
                    if !problems.isEmpty { failed = true }
                }
                for (index, entry) in result.entries.enumerated() {
                    let publicKey = try entry.key.publicKey()
                    let entryName = result.entries.count > 1 ? "\(name)[\(index + 1)]" : name
                    if let group = groups.firstIndex(where: { $0.publicKey == publicKey }) {
                        groups[group].entries.append(entryName)
                        if !groups[group].files.contains(name) { groups[group].files.append(name) }
                    } else {
                        groups.append(Group(publicKey: publicKey, entries: [entryName], files: [name]))
                    }
                }
            }
            for group in groups {
                if json {
                    var object = JSONObject()
                    object.set("spkiSHA256", group.publicKey.spkiSHA256)
                    object.set("algorithm", group.publicKey.algorithm.rawValue)
                    object.set("curve", group.publicKey.curve?.rawValue)
                    object.set("files", group.files)
                    object.set("entries", group.entries)
                    print(object.line)
                } else {
                    print("\(group.publicKey.spkiSHA256) \(group.publicKey.algorithmDescription): \(group.entries.joined(separator: " "))")
                }
            }
            let shared = groups.contains { $0.files.count == Set(files.map(KeyLoader.displayName)).count }
            if failed || !shared { throw ExitCode(1) }
        }
    }
}
