import ArgumentParser
import AsymmetricKeys
import KeytoolSupport
import KeyCodec

extension Keytool {
    /// `keytool check FILE`: consistency of a private key.
    struct CheckCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check a private key's consistency: RSA n = p·q(·r…), primes, e·d ≡ 1 mod λ(n), CRT values; EC Q = d·G on the curve; EdDSA/X public key from the private key.",
            discussion: "Exit status 0 when the key is consistent, 1 with every problem listed otherwise."
        )

        @Argument(help: "The private key file, or - for standard input.")
        var file: String

        @OptionGroup var passphrase: PassphraseOptions

        func run() throws {
            let (input, keys) = try KeyLoader.loadAll(file, passphrase: passphrase)
            var failed = false
            for (index, decoded) in keys.enumerated() {
                let name = keys.count > 1 ? "\(input.name) [key \(index + 1)]" : input.name
                guard let key = decoded.key.privateKey else {
                    printError("\(name): holds a public key; only private keys can be checked")
                    failed = true
                    continue
                }
                let problems = try key.consistencyProblems()
                let description = try key.publicKey().sizedDescription
                if problems.isEmpty {
                    print("\(name): \(description) key is consistent")
                } else {
                    failed = true
                    printError("\(name): \(description) key is not consistent:")
                    for problem in problems { printError("  - \(problem)") }
                }
            }
            if failed { throw ExitCode(1) }
        }
    }
}
