import ArgumentParser
import AsymmetricKeys
import KeytoolSupport

extension Keytool {
    /// `keytool fingerprint FILE [--hash sha256|md5]`: one line per key, as `ssh-keygen -l`.
    struct FingerprintCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fingerprint",
            abstract: "Print the key's fingerprint exactly as ssh-keygen -l does: bits, hash, comment, (TYPE)."
        )

        enum Hash: String, ExpressibleByArgument, CaseIterable {
            case sha256, md5
        }

        @Argument(help: "The key file, or - for standard input.")
        var file: String

        @Option(help: "The hash: sha256 (default) or md5.")
        var hash: Hash = .sha256

        @OptionGroup var passphrase: PassphraseOptions

        func run() throws {
            let (_, keys) = try KeyLoader.loadAll(file, passphrase: passphrase)
            for decoded in keys {
                let key = try decoded.key.publicKey()
                guard let print_ = hash == .sha256 ? key.fingerprintSHA256 : key.fingerprintMD5 else {
                    throw CommandError("\(KeyLoader.displayName(file)): \(key.algorithm.displayName) keys have no SSH fingerprint (SSH keys never hold them); see keytool inspect for the public key")
                }
                // ssh-keygen prints "no comment" when the key has none.
                print("\(key.bits) \(print_) \(decoded.comment ?? "no comment") (\(decoded.sshCertificate?.sshLabel ?? key.sshLabel))")
            }
        }
    }
}
