import ArgumentParser
import AsymmetricKeys
import KeytoolSupport

extension Keytool {
    /// `keytool decrypt --key K [--padding …] [--public] IN OUT`.
    struct DecryptCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decrypt",
            abstract: "Decrypt chunked RSA ciphertext (a whole number of k-byte blocks).",
            discussion: """
                With --public, recover data that was "encrypted with the private key" (PKCS#1 type 1 \
                padding, as openssl rsautl -sign writes it) using the public key: this proves who made \
                the data but does not keep it secret. PKCS#1 v1.5 decryption is legacy (Bleichenbacher).
                """
        )

        @Option(help: "The key file: private, or public with --public.")
        var key: String

        @Option(help: "oaep-sha256 (default), oaep-sha1 or pkcs1 (ignored with --public).")
        var padding: EncryptionPaddingOption = .oaepSHA256

        @Flag(name: .customLong("public"), help: "Recover private-key-encrypted data with the public key.")
        var usePublicKey = false

        @OptionGroup var files: DataFileArguments

        @OptionGroup var passphrase: PassphraseOptions

        func run() throws {
            let data = try InputFile.read(files.input)
            let plaintext: [UInt8]
            do {
                if usePublicKey {
                    let publicKey = try KeyLoader.loadRSAPublic(key, passphrase: passphrase, for: "keytool decrypt (RSA decryption)")
                    plaintext = try publicKey.recoverWithPublicKey(data.bytes)
                } else {
                    let privateKey = try KeyLoader.loadPrivateRSA(key, passphrase: passphrase, for: "keytool decrypt (RSA decryption)")
                    plaintext = padding == .pkcs1
                        ? try privateKey.decryptLegacyPKCS1v15(data.bytes)
                        : try privateKey.decrypt(data.bytes, padding: padding.padding)
                }
            } catch let error as KeyError {
                throw CommandError("\(data.name): \(error.reason)")
            }
            try OutputFile.write(plaintext, to: files.output, mode: 0o600)
        }
    }
}
