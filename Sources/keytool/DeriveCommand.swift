import ArgumentParser
import AsymmetricKeys
import CryptoOpenSSL
import KeytoolSupport
import KeyCodec

extension Keytool {
    /// `keytool derive --key K --peer P [--out F]`: the shared secret of a key agreement.
    struct DeriveCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "derive",
            abstract: "Derive the shared secret of an X25519, X448 or EC (ECDH) private key and a peer's public key, as openssl pkeyutl -derive.",
            discussion: "The secret is written as raw bytes (mode 0600 when --out is given)."
        )

        @Option(help: "The private key file (X25519, X448, or EC).")
        var key: String

        @Option(help: "The peer's key file (public or private; its public half is used).")
        var peer: String

        @Option(name: .shortAndLong, help: "The output file (default: standard output).")
        var out: String?

        @OptionGroup var passphrase: PassphraseOptions

        func run() throws {
            let privateKey = try KeyLoader.loadPrivate(key, passphrase: passphrase)
            let peerKey = try KeyLoader.load(peer, passphrase: passphrase)
            let secret: SecureBytes
            do {
                secret = try privateKey.deriveSharedSecret(with: try peerKey.key.publicKey())
            } catch let error as KeyError {
                throw CommandError("\(KeyLoader.displayName(key)): \(error.reason)")
            }
            try secret.withUnsafeBytes { try OutputFile.write(Array($0), to: out, mode: 0o600) }
        }
    }
}
