import ArgumentParser
import CryptoOpenSSL
import RSAKeys

/// `keytool sign --key K [--padding pkcs1|pss] [--hash …] [--out SIG] FILE`.
struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a file; the signature is raw bytes, as openssl dgst -sign writes it.",
        discussion: "PSS uses a salt as long as the digest (openssl's rsa_pss_saltlen:digest)."
    )

    @Option(help: "The private key file.")
    var key: String

    @Option(help: "pkcs1 (default) or pss.")
    var padding: SignaturePaddingOption = .pkcs1

    @Option(help: "sha256 (default), sha384 or sha512.")
    var hash: SignatureHashOption = .sha256

    @Option(name: .shortAndLong, help: "Signature file (default: standard output).")
    var out: String?

    @Argument(help: "The file to sign, or - for standard input.")
    var file: String

    @OptionGroup var passphrase: PassphraseOptions

    func validate() throws {
        if hash == .sha1 { throw ValidationError("sha1 is accepted for verify only; sign with sha256, sha384 or sha512") }
    }

    func run() throws {
        try reportingFailures {
            let privateKey = try KeyLoader.loadPrivate(key, passphrase: passphrase)
            let data = try InputFile.read(file)
            let scheme: RSASignaturePadding = padding == .pss ? .pss(saltLength: .digestLength) : .pkcs1v15
            let signature: [UInt8]
            do {
                signature = try privateKey.sign(data.bytes, hash: hash.algorithm, padding: scheme)
            } catch let error as RSAKeyError {
                throw CommandError("\(data.name): \(error.reason)")
            }
            try OutputFile.write(signature, to: out)
        }
    }
}
