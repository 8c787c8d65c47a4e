import ArgumentParser
import AsymmetricKeys
import CryptoOpenSSL
import KeytoolSupport
import KeyCodec

extension Keytool {
    /// `keytool fingerprint FILE [--hash sha256|md5]`: one line per key, as `ssh-keygen -l`.
    struct FingerprintCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fingerprint",
            abstract: "Print the key's fingerprint exactly as ssh-keygen -l does: bits, hash, comment, (TYPE).",
            discussion: "One line per entry of the file; an entry that cannot be read is one 'keytool: error: FILE: line N: reason' line on standard error. Exit 1 when an entry could not be read (the others are printed first) or no line was printed; --strict also exits 1 when an entry was read with a warning. EC keys on curves SSH has no key type for (secp256k1, brainpool) and RSA-PSS keys print the hash of their SubjectPublicKeyInfo instead: SPKI-SHA256:<base64> (the spkiSHA256 pin) or SPKI-MD5:<hex pairs>."
        )

        enum Hash: String, ExpressibleByArgument, CaseIterable {
            case sha256, md5
        }

        @Argument(help: "The key file, or - for standard input.")
        var file: String

        @Option(help: "The hash: sha256 (default) or md5.")
        var hash: Hash = .sha256

        @Flag(help: "Exit 1 when an entry cannot be read or was read with a warning.")
        var strict = false

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
            // Encrypted OpenSSH and PuTTY keys store the public key in clear: no passphrase asked.
            let (input, result) = try KeyLoader.loadPublicParts(file, passphrase: passphrase)
            var printed = 0
            for (index, decoded) in result.entries.enumerated() {
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
                    print("\(key.bits) \(key.spkiFingerprint(hash == .sha256 ? .sha256 : .md5)) \(Self.label(decoded)) (\(label))")
                    printed += 1
                    continue
                }
                guard let print_ = hash == .sha256 ? key.fingerprintSHA256 : key.fingerprintMD5 else {
                    let entry = result.entries.count > 1 ? " (key \(index + 1))" : ""
                    printError("\(input.name)\(entry): \(key.algorithm.displayName) keys have no SSH fingerprint (SSH keys never hold them); see keytool inspect for the public key")
                    continue
                }
                print("\(key.bits) \(print_) \(Self.label(decoded)) (\(decoded.sshCertificate?.sshLabel ?? key.sshLabel))")
                printed += 1
            }
            for failure in result.failures { printError(KeyLoader.message(failure, file: input.name)) }
            if printed == 0 { throw ExitCode(1) }
            try EntryReport.finish(result, file: input.name, strict: strict)
        }
    }
}
