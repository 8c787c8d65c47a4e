import ArgumentParser
import AsymmetricKeys
import KeytoolSupport

extension Keytool {
    /// `keytool encrypt --key K [--padding …] IN OUT`: RSA over data of any length.
    struct EncryptCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "encrypt",
            abstract: "Encrypt data of any length with an RSA public key (chunked: one k-byte block per chunk).",
            discussion: """
                Chunks hold at most k − 2·hLen − 2 bytes with OAEP (190 for a 2048-bit key and SHA-256) or \
                k − 11 with PKCS#1 v1.5. The key may be a public or a private key file.
                """
        )

        @Option(help: "The key file (public or private).")
        var key: String

        @Option(help: "oaep-sha256 (default), oaep-sha1 or pkcs1.")
        var padding: EncryptionPaddingOption = .oaepSHA256

        @OptionGroup var files: DataFileArguments

        @OptionGroup var passphrase: PassphraseOptions

        func run() throws {
            let publicKey = try KeyLoader.loadRSAPublic(key, passphrase: passphrase, for: "keytool encrypt (RSA encryption)")
            let data = try InputFile.read(files.input)
            let ciphertext: [UInt8]
            do {
                ciphertext = try publicKey.encrypt(data.bytes, padding: padding.padding)
            } catch let error as KeyError {
                throw CommandError("\(data.name): \(error.reason)")
            }
            try OutputFile.write(ciphertext, to: files.output)
        }
    }
}
