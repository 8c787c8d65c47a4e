import ArgumentParser
import RSAKeys

/// `keytool generate --bits N [--exponent E] [--to FORMAT] --out F`.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate a new RSA key with OpenSSL and write it with mode 0600.",
        discussion: "Keys under 2048 bits need --unsafe-allow-small-key (1024 at least)."
    )

    @Option(help: "Modulus size in bits (default 2048).")
    var bits = 2048

    @Option(help: "Public exponent (default 65537).")
    var exponent: UInt64 = 65537

    @Option(help: "Output format: pkcs8 (default), pkcs1 or openssh.")
    var to: KeyOutputFormat = .pkcs8

    @Flag(help: "Write DER instead of PEM (pkcs1, pkcs8).")
    var der = false

    @Option(name: .shortAndLong, help: "The output file.")
    var out: String

    @Option(help: "Comment for OpenSSH output.")
    var comment: String?

    @Option(help: ArgumentHelp("Encrypt the key with this cipher (aes-256-cbc…; for openssh aes256-ctr…).", valueName: "cipher"))
    var encrypt: String?

    @Flag(help: "Allow keys of 1024…2047 bits, which are too weak for new use.")
    var unsafeAllowSmallKey = false

    @OptionGroup var newPassphrase: NewPassphraseOptions

    func validate() throws {
        guard to.isPrivate else { throw ValidationError("--to must be a private key format: pkcs1, pkcs8 or openssh") }
        if der && to == .openssh { throw ValidationError("--der applies to pkcs1 and pkcs8 only") }
        if newPassphrase.isGiven && encrypt == nil { throw ValidationError("--new-passphrase-file/--new-passphrase-env need --encrypt CIPHER") }
        if bits < 2048 && !unsafeAllowSmallKey {
            throw ValidationError("\(bits)-bit keys are too weak; pass --unsafe-allow-small-key to generate one anyway")
        }
    }

    func run() throws {
        try reportingFailures {
            let encryption = try encrypt.map { KeyEncoder.Encryption(passphrase: try newPassphrase.read(), cipher: $0) }
            let bytes: [UInt8]
            do {
                let key = try RSAPrivateKey.generate(bits: bits, publicExponent: exponent, unsafeAllowSmallKey: unsafeAllowSmallKey)
                bytes = try KeyEncoder.encode(.privateKey(key), as: to, der: der, comment: comment, encryption: encryption)
            } catch let error as RSAKeyError {
                throw CommandError(error.reason)
            }
            try OutputFile.write(bytes, to: out, mode: 0o600)
        }
    }
}
