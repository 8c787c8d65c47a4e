import ArgumentParser
import AsymmetricKeys
import CryptoOpenSSL
import KeytoolSupport
import KeyCodec

extension Keytool {
    /// `keytool fingerprint FILE [--hash sha256|md5|bubblebabble] [-B]`: one line per key, as
    /// `ssh-keygen -l` (and `-B`).
    struct FingerprintCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fingerprint",
            abstract: "Print the key's fingerprint exactly as ssh-keygen -l does: bits, hash, comment, (TYPE).",
            discussion: "One line per entry of the file; an entry that cannot be read is one 'keytool: error: FILE: line N: reason' line on standard error. Exit 1 when an entry could not be read (the others are printed first) or no line was printed; --strict also exits 1 when an entry was read with a warning. An OpenSSH certificate whose CA signature does not verify is refused as ssh-keygen -l refuses it: one 'keytool: error: FILE: entry N: …' line, the other entries still print, and the exit status is 1. --hash bubblebabble (or -B, as ssh-keygen -B) prints the Bubble Babble of the SHA-1 of the key blob. EC keys on curves SSH has no key type for (secp256k1, brainpool) and RSA-PSS keys print the hash of their SubjectPublicKeyInfo instead: SPKI-SHA256:<base64> (the spkiSHA256 pin) or SPKI-MD5:<hex pairs>; they have no Bubble Babble."
        )

        enum Hash: String, ExpressibleByArgument, CaseIterable {
            case sha256, md5, bubblebabble
        }

        @Argument(help: "The key file, or - for standard input.")
        var file: String

        @Option(help: "The hash: sha256 (default), md5, or bubblebabble (the SHA-1 of the key blob in Bubble Babble, as ssh-keygen -B).")
        var hash: Hash = .sha256

        @Flag(name: .customShort("B"), help: "The same as --hash bubblebabble (ssh-keygen -B).")
        var bubbleBabble = false

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
            let hash = bubbleBabble ? .bubblebabble : self.hash
            // Encrypted OpenSSH and PuTTY keys store the public key in clear: no passphrase asked.
            let (input, result) = try KeyLoader.loadPublicParts(file, passphrase: passphrase)
            var printed = 0
            var refused = 0
            for (index, decoded) in result.entries.enumerated() {
                let key = try decoded.key.publicKey()
                let entry = result.entries.count > 1 ? " (key \(index + 1))" : ""
                // ssh-keygen -l refuses a certificate whose CA signature does not verify.
                if let certificate = decoded.sshCertificate {
                    let verdict = SSHCertificateDescription.signatureVerdict(certificate)
                    if !verdict.valid {
                        printError("\(input.name): entry \(index + 1): the OpenSSH certificate's CA signature \(verdict.text) (ssh-keygen -l refuses it); see keytool inspect")
                        refused += 1
                        continue
                    }
                }
                // EC keys on curves SSH has no key type for, and RSA-PSS keys: the fingerprint of the SPKI instead.
                let label: String? = if let curve = key.curve, curve.sshKeyType == nil {
                    "ECDSA \(curve.rawValue)"
                } else if key.rsa?.pssRestriction != nil {
                    "RSA-PSS"
                } else {
                    nil
                }
                if let label {
                    guard hash != .bubblebabble else {
                        printError("\(input.name)\(entry): a \(label) key has no SSH key blob, so no Bubble Babble; use --hash sha256 or md5 for its SubjectPublicKeyInfo")
                        continue
                    }
                    print("\(key.bits) \(key.spkiFingerprint(hash == .sha256 ? .sha256 : .md5)) \(Self.label(decoded)) (\(label))")
                    printed += 1
                    continue
                }
                let text: String? = switch hash {
                case .sha256: key.fingerprintSHA256
                case .md5: key.fingerprintMD5
                case .bubblebabble: key.fingerprintBubbleBabble
                }
                guard let text else {
                    printError("\(input.name)\(entry): \(key.algorithm.displayName) keys have no SSH fingerprint (SSH keys never hold them); see keytool inspect for the public key")
                    continue
                }
                print("\(key.bits) \(text) \(Self.label(decoded)) (\(decoded.sshCertificate?.sshLabel ?? key.sshLabel))")
                printed += 1
            }
            for failure in result.failures { printError(KeyLoader.message(failure, file: input.name)) }
            if printed == 0 { throw ExitCode(1) }
            try EntryReport.finish(result, file: input.name, strict: strict)
            if refused > 0 { throw ExitCode(1) }
        }
    }
}
