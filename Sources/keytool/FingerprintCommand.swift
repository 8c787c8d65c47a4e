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

        /// What stands after the fingerprint: the comment, or ssh-keygen's "no comment"; for a
        /// known_hosts line the comment or else the hosts, as ssh-keygen prints them (hashed ones
        /// hashed), and for a marked line, which ssh-keygen skips, the marker and the hosts.
        static func label(_ decoded: DecodedKey) -> String {
            // An OpenSSH private key always stores a comment, and ssh-keygen prints an empty one
            // as nothing (its "no comment" is for keys that have no comment field).
            if decoded.format == .opensshPrivate, decoded.key.isPrivate, decoded.comment == nil { return "" }
            guard let entry = decoded.knownHosts else { return decoded.comment ?? "no comment" }
            if let marker = entry.marker { return "\(marker.rawValue) \(entry.hostsText)" }
            return decoded.comment ?? entry.hostsText
        }

        func run() throws {
            // A known_hosts file prints every line it can read, then fails for the others.
            let input = try InputFile.read(file)
            if let (keys, failed) = KeyLoader.knownHostsLines(input) {
                try printFingerprints(keys)
                if failed { throw ExitCode(1) }
                return
            }
            // Encrypted OpenSSH and PuTTY keys store the public key in clear: no passphrase asked.
            let (_, keys) = try KeyLoader.loadPublicParts(input, passphrase: passphrase)
            try printFingerprints(keys)
        }

        private func printFingerprints(_ keys: [DecodedKey]) throws {
            for decoded in keys {
                let key = try decoded.key.publicKey()
                guard let print_ = hash == .sha256 ? key.fingerprintSHA256 : key.fingerprintMD5 else {
                    throw CommandError("\(KeyLoader.displayName(file)): \(key.algorithm.displayName) keys have no SSH fingerprint (SSH keys never hold them); see keytool inspect for the public key")
                }
                print("\(key.bits) \(print_) \(Self.label(decoded)) (\(key.sshLabel))")
            }
        }
    }
}
