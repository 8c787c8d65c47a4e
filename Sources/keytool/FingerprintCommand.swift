import ArgumentParser
import AsymmetricKeys
import CryptoOpenSSL
import KeytoolSupport

extension Keytool {
    /// `keytool fingerprint FILE [--hash sha256|md5]`: one line per key, as `ssh-keygen -l`.
    struct FingerprintCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fingerprint",
            abstract: "Print the key's fingerprint exactly as ssh-keygen -l does: bits, hash, comment, (TYPE).",
            discussion: "EC keys on curves SSH has no key type for (secp256k1, brainpool) and RSA-PSS keys print the hash of their SubjectPublicKeyInfo instead: SPKI-SHA256:<base64> (the spkiSHA256 pin) or SPKI-MD5:<hex pairs>."
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
                // EC keys on curves SSH has no key type for, and RSA-PSS keys: the fingerprint of the SPKI instead.
                let label: String? = if let curve = key.curve, curve.sshKeyType == nil {
                    "ECDSA \(curve.rawValue)"
                } else if key.rsa?.pssRestriction != nil {
                    "RSA-PSS"
                } else {
                    nil
                }
                if let label {
                    print("\(key.bits) \(key.spkiFingerprint(hash == .sha256 ? .sha256 : .md5)) \(decoded.comment ?? "no comment") (\(label))")
                    continue
                }
                guard let print_ = hash == .sha256 ? key.fingerprintSHA256 : key.fingerprintMD5 else {
                    throw CommandError("\(KeyLoader.displayName(file)): \(key.algorithm.displayName) keys have no SSH fingerprint (SSH keys never hold them); see keytool inspect for the public key")
                }
                // ssh-keygen prints "no comment" when the key has none.
                print("\(key.bits) \(print_) \(decoded.comment ?? "no comment") (\(key.sshLabel))")
            }
        }
    }
}
