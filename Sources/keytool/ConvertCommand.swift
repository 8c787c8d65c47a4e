import ArgumentParser
import AsymmetricKeys
import KeytoolSupport
import KeyCodec
import X509Kit

extension KeyOutputFormat: ExpressibleByArgument {}

extension PPKPrivateKey.Version: ExpressibleByArgument {}

extension Keytool {
    /// `keytool convert FILE --to FORMAT [--der] [--out F] [--encrypt CIPHER --new-passphrase-…]`.
    struct ConvertCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "convert",
            abstract: "Convert a key to another container.",
            discussion: """
                Formats: \(KeyOutputFormat.allCases.map(\.rawValue).joined(separator: ", ")). A private key \
                can be written in any format that holds its algorithm (public formats take its public half); \
                a public key only in public formats. pkcs1 holds RSA keys, sec1 EC keys, the SSH formats no \
                X25519/X448 keys (and openssh no Ed448); pkcs8, spki, jwk, jwk-public and pkcs12 hold every \
                algorithm. A JWK keeps the input's kid, use and alg. pkcs12 stores the key with the \
                certificates of --certificate under the new passphrase. ppk writes a PuTTY private key file \
                (RSA, EC P-256/384/521, Ed25519, Ed448), version 3 unless --ppk-version 2 asks for the format \
                of PuTTY before 0.75; --encrypt aes256-cbc encrypts it (v3: Argon2id, 8192 KiB, 16 passes, \
                1 lane). Private keys are written with mode 0600. An existing output file is not replaced \
                without --force, and a symbolic link is never written through. In a file of several \
                entries, those that cannot be read are named on standard error; when one key is read it is \
                converted all the same, and the exit status is 1.
                """
        )

        @Argument(help: "The key file, or - for standard input.")
        var file: String

        @Option(help: "The output format.")
        var to: KeyOutputFormat

        @Flag(help: "Write DER instead of PEM (pkcs1, pkcs1-public, pkcs8, sec1, spki).")
        var der = false

        @Option(name: .shortAndLong, help: "The output file (default: standard output).")
        var out: String?

        @Flag(help: "Replace an existing output file (through a new file renamed over it; a symbolic link is replaced, never written through).")
        var force = false

        @Option(help: ArgumentHelp("Encrypt the output with this cipher (aes-256-cbc, aes-128-cbc, des-ede3-cbc…; for openssh: aes256-ctr…; for ppk: aes256-cbc).", valueName: "cipher"))
        var encrypt: String?

        @Option(help: "Comment for OpenSSH, RFC 4716 and PPK output (default: the input's comment).")
        var comment: String?

        @Option(name: .customLong("certificate"), help: ArgumentHelp("For --to pkcs12: a certificate file (PEM or DER; every certificate of a PEM chain) to store with the key. Repeatable.", valueName: "file"))
        var certificates: [String] = []

        @Option(help: "For --to pkcs12: the friendly name of the key and its certificate.")
        var name: String?

        @Flag(help: "For --to pkcs12: SHA-1 with 3DES/RC2-40 and a SHA-1 MAC, for old readers (as openssl pkcs12 -legacy).")
        var legacy = false

        @Option(name: .customLong("ppk-version"), help: ArgumentHelp("The PuTTY key file version for --to ppk: 3 (default) or 2 (PuTTY before 0.75).", valueName: "n"))
        var ppkVersion: PPKPrivateKey.Version?

        @OptionGroup var passphrase: PassphraseOptions
        @OptionGroup var newPassphrase: NewPassphraseOptions

        func validate() throws {
            if to != .pkcs12 && (!certificates.isEmpty || name != nil || legacy) {
                throw ValidationError("--certificate, --name and --legacy apply to --to pkcs12 only")
            }
            if to == .pkcs12 && encrypt != nil {
                throw ValidationError("a PKCS#12 file is always encrypted: give --new-passphrase-file/--new-passphrase-env (and --legacy for old readers), not --encrypt")
            }
            if encrypt != nil && to == .jwk {
                throw ValidationError("a JWK is plain JSON; --encrypt applies to pkcs1, pkcs8, sec1 and openssh")
            }
            if encrypt != nil && !to.isPrivate {
                throw ValidationError("--encrypt needs a private output format (pkcs1, pkcs8, sec1, openssh, ppk)")
            }
            if ppkVersion != nil && to != .ppk { throw ValidationError("--ppk-version applies to --to ppk only") }
            if newPassphrase.isGiven && encrypt == nil && to != .pkcs12 {
                throw ValidationError("--new-passphrase-file/--new-passphrase-env need --encrypt CIPHER")
            }
            if der && ![.pkcs1, .pkcs1Public, .pkcs8, .sec1, .spki].contains(to) {
                throw ValidationError("--der applies to pkcs1, pkcs1-public, pkcs8, sec1 and spki only")
            }
            if der && encrypt != nil && (to == .pkcs1 || to == .sec1) {
                throw ValidationError("encrypted PKCS#1 and SEC 1 (legacy PEM encryption) exist only as PEM; use --to pkcs8 for encrypted DER")
            }
        }

        func run() throws {
            // Read and decrypted once: `-` cannot be read twice, and a prompt must not repeat.
            let (input, result) = try KeyLoader.loadEntries(file, passphrase: passphrase)
            // The entries that cannot be read are named; the key is converted all the same when
            // it is the one entry read, and the exit status is 1.
            for failure in result.failures { printError(KeyLoader.message(failure, file: input.name)) }
            try convert(KeyLoader.single(result.entries, in: input.name), from: result.entries, name: input.name)
            if !result.failedEntries.isEmpty { throw ExitCode(1) }
        }

        /// Writes `decoded` (read from `keys`, the entries of the input named `name`) in the output format.
        private func convert(_ decoded: DecodedKey, from keys: [DecodedKey], name: String) throws {
            if to.isPrivate && !decoded.key.isPrivate {
                throw CommandError("\(name): holds a public key; --to \(to.rawValue) needs a private key")
            }
            if to == .pkcs12 {
                try OutputFile.writeNew(try pkcs12(decoded, from: keys, name: name), to: out, mode: 0o600, force: force)
                return
            }
            let encryption = try encrypt.map { KeyEncoder.Encryption(passphrase: try newPassphrase.read(), cipher: $0) }
            let bytes: [UInt8]
            do {
                bytes = try KeyEncoder.encode(decoded.key, as: to, der: der, comment: comment ?? decoded.comment, encryption: encryption,
                                              options: decoded.options, attributes: decoded.attributes,
                                              ppkVersion: ppkVersion ?? .v3)
            } catch let error as KeyError {
                throw CommandError("\(name): \(error.reason)")
            }
            try OutputFile.writeNew(bytes, to: out, mode: to.isPrivate ? 0o600 : 0o644, force: force)
        }

        /// The key with the certificates of `--certificate` (and, from a PKCS#12 input, its own: the
        /// certificates among `keys`, everything the input held) as a PKCS#12 file.
        private func pkcs12(_ decoded: DecodedKey, from keys: [DecodedKey], name inputName: String) throws -> [UInt8] {
            // Each certificate with its friendly name (a PKCS#12 input's CA names are kept).
            var chain: [(der: [UInt8], name: String?)] = []
            if decoded.format == .pkcs12 {
                chain += keys.compactMap { key in key.certificate.map { (Array($0.derEncoded), key.attributes.friendlyName) } }
            }
            for path in certificates {
                let (input, keys) = try KeyLoader.loadAll(path, passphrase: passphrase)
                let found = keys.compactMap { key in key.certificate.map { (der: Array($0.derEncoded), name: key.attributes.friendlyName) } }
                guard !found.isEmpty else { throw CommandError("\(input.name): holds no X.509 certificate") }
                chain += found
            }
            do {
                return try PKCS12File.encode(key: decoded.key.privateKey, certificates: chain.map(\.der), passphrase: try newPassphrase.read(),
                                             friendlyName: name ?? decoded.attributes.friendlyName, certificateNames: chain.map(\.name),
                                             protection: legacy ? .legacy : .modern)
            } catch let error as KeyError {
                throw CommandError("\(inputName): \(error.reason)")
            }
        }
    }
}
