import ArgumentParser
import AsymmetricKeys

extension KeyOutputFormat: ExpressibleByArgument {}

/// `keytool convert FILE --to FORMAT [--der] [--out F] [--encrypt CIPHER --new-passphrase-…]`.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a key to another container.",
        discussion: """
            Formats: \(KeyOutputFormat.allCases.map(\.rawValue).joined(separator: ", ")). A private key \
            can be written in any format that holds its algorithm (public formats take its public half); \
            a public key only in public formats. pkcs1 holds RSA keys, sec1 EC keys, the SSH formats no \
            X25519/X448 keys (and openssh no Ed448); pkcs8 and spki hold every algorithm. ppk writes a \
            PuTTY private key file (RSA, EC P-256/384/521, Ed25519, Ed448), version 3 unless \
            --ppk-version 2 asks for the format of PuTTY before 0.75; --encrypt aes256-cbc encrypts it \
            (v3: Argon2id, 8192 KiB, 16 passes, 1 lane). Private keys are written with mode 0600.
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

    @Option(help: ArgumentHelp("Encrypt the output with this cipher (aes-256-cbc, aes-128-cbc, des-ede3-cbc…; for openssh: aes256-ctr…; for ppk: aes256-cbc).", valueName: "cipher"))
    var encrypt: String?

    @Option(help: "Comment for OpenSSH, RFC 4716 and PPK output (default: the input's comment).")
    var comment: String?

    @Option(name: .customLong("ppk-version"), help: ArgumentHelp("The PuTTY key file version for --to ppk: 3 (default) or 2 (PuTTY before 0.75).", valueName: "n"))
    var ppkVersion: Int?

    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var newPassphrase: NewPassphraseOptions

    func validate() throws {
        if encrypt != nil && !to.isPrivate {
            throw ValidationError("--encrypt needs a private output format (pkcs1, pkcs8, sec1, openssh, ppk)")
        }
        if let ppkVersion {
            guard to == .ppk else { throw ValidationError("--ppk-version applies to --to ppk only") }
            guard ppkVersion == 2 || ppkVersion == 3 else { throw ValidationError("--ppk-version must be 2 or 3") }
        }
        if newPassphrase.isGiven && encrypt == nil {
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
        try reportingFailures {
            let decoded = try KeyLoader.load(file, passphrase: passphrase)
            let name = file == "-" ? "stdin" : file
            if to.isPrivate && !decoded.key.isPrivate {
                throw CommandError("\(name): holds a public key; --to \(to.rawValue) needs a private key")
            }
            let encryption = try encrypt.map { KeyEncoder.Encryption(passphrase: try newPassphrase.read(), cipher: $0) }
            let bytes: [UInt8]
            do {
                bytes = try KeyEncoder.encode(decoded.key, as: to, der: der, comment: comment ?? decoded.comment, encryption: encryption,
                                              options: decoded.options, ppkVersion: ppkVersion == 2 ? .v2 : .v3)
            } catch let error as KeyError {
                throw CommandError("\(name): \(error.reason)")
            }
            try OutputFile.write(bytes, to: out, mode: to.isPrivate ? 0o600 : 0o644)
        }
    }
}
