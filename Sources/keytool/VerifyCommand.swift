import ArgumentParser
import CryptoOpenSSL
import Foundation
import RSAKeys

/// `keytool verify --key K [--padding …] [--hash …] --signature SIG FILE`.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a signature; exit 0 when it verifies, 1 with 'signature does not verify' otherwise.",
        discussion: "PSS accepts any salt length (the length is recovered from the signature)."
    )

    @Option(help: "The key file (public or private).")
    var key: String

    @Option(help: "pkcs1 (default) or pss.")
    var padding: SignaturePaddingOption = .pkcs1

    @Option(help: "sha256 (default), sha384, sha512, or sha1 (verify only).")
    var hash: SignatureHashOption = .sha256

    @Option(help: "The signature file (raw bytes).")
    var signature: String

    @Argument(help: "The signed file, or - for standard input.")
    var file: String

    @OptionGroup var passphrase: PassphraseOptions

    func validate() throws {
        if signature == "-" && file == "-" { throw ValidationError("the signature and the data cannot both come from standard input") }
    }

    func run() throws {
        try reportingFailures {
            let decoded = try KeyLoader.load(key, passphrase: passphrase)
            let signatureFile = try InputFile.read(signature)
            let data = try InputFile.read(file)
            let scheme: RSASignaturePadding = padding == .pss ? .pss(saltLength: .auto) : .pkcs1v15
            let ok: Bool
            do {
                ok = try decoded.key.publicKey.verify(signature: signatureFile.bytes, message: data.bytes, hash: hash.algorithm, padding: scheme)
            } catch let error as RSAKeyError {
                throw CommandError("\(data.name): \(error.reason)")
            }
            guard ok else { throw CommandError("\(data.name): signature does not verify") }
            print("Verified OK")
        }
    }
}
