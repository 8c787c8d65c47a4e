import ArgumentParser
import CryptoOpenSSL
import AsymmetricKeys
import KeytoolSupport

extension Keytool {
    /// `keytool verify --key K [--padding …] [--hash …] --signature SIG FILE`.
    struct VerifyCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Verify an RSA, ECDSA, Ed25519 or Ed448 signature; exit 0 when it verifies, 1 with 'signature does not verify' otherwise.",
            discussion: "PSS accepts any salt length (the length is recovered from the signature). Options as for sign."
        )

        @Option(help: "The key file (public or private).")
        var key: String

        @OptionGroup var signatureOptions: SignatureOptions

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
            let scheme = try signatureOptions.scheme(for: decoded.key.algorithm, pssRestriction: try decoded.key.publicKey().rsa?.pssRestriction,
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
}
