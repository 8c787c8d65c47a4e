import ArgumentParser
import CryptoOpenSSL
import AsymmetricKeys
import KeytoolSupport

/// `keytool verify --key K [--padding …] [--hash …] --signature SIG FILE`.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify an RSA, ECDSA, Ed25519 or Ed448 signature; exit 0 when it verifies, 1 with 'signature does not verify' otherwise.",
        discussion: "PSS accepts any salt length (the length is recovered from the signature). Options as for sign."
    )

    @Option(help: "The key file (public or private).")
    var key: String

    @Option(help: "RSA only: pkcs1 (default) or pss.")
    var padding: SignaturePaddingOption?

    @Option(help: "sha256, sha384, sha512, or sha1 (verify only) (default: sha256 for RSA, the curve's digest for EC; none for EdDSA).")
    var hash: SignatureHashOption?

    @Option(help: "EC only: der (default) or raw (r ‖ s).")
    var signatureFormat: ECDSASignatureFormat?

    @Option(help: "The signature file (raw bytes).")
    var signature: String

    @Argument(help: "The signed file, or - for standard input.")
    var file: String

    @OptionGroup var passphrase: PassphraseOptions

    func validate() throws {
        if signature == "-" && file == "-" { throw ValidationError("the signature and the data cannot both come from standard input") }
    }

    func run() throws {
        let decoded = try KeyLoader.load(key, passphrase: passphrase)
        let scheme = try SignatureOptions.scheme(for: decoded.key.algorithm, padding: padding, hash: hash, signatureFormat: signatureFormat,
                                                 pssSalt: .auto, key: key)
        let signatureFile = try InputFile.read(signature)
        let data = try InputFile.read(file)
        let ok: Bool
        do {
            ok = try decoded.key.publicKey().verify(signatureFile.bytes, for: data.bytes, scheme: scheme)
        } catch let error as KeyError {
            throw CommandError("\(data.name): \(error.reason)")
        }
        guard ok else { throw CommandError("\(data.name): signature does not verify") }
        print("Verified OK")
    }
}
