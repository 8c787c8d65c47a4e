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
        try SignatureOptions.check(decoded.key.algorithm, padding: padding, hash: hash, signatureFormat: signatureFormat, key: key)
        let signatureFile = try InputFile.read(signature)
        let data = try InputFile.read(file)
        let ok: Bool
        do {
            let publicKey = try decoded.key.publicKey()
            if case .rsa(let rsa) = publicKey {
                let scheme: RSASignaturePadding = padding == .pss ? .pss(saltLength: .auto) : .pkcs1v15
                ok = try rsa.verify(signature: signatureFile.bytes, message: data.bytes, hash: (hash ?? .sha256).algorithm, padding: scheme)
            } else {
                ok = try publicKey.verify(signatureFile.bytes, for: data.bytes, digest: hash?.algorithm, format: signatureFormat ?? .der)
            }
        } catch let error as KeyError {
            throw CommandError("\(data.name): \(error.reason)")
        }
        guard ok else { throw CommandError("\(data.name): signature does not verify") }
        print("Verified OK")
    }
}
