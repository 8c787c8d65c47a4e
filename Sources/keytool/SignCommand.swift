import ArgumentParser
import CryptoOpenSSL
import AsymmetricKeys
import KeytoolSupport

extension Keytool {
    /// `keytool sign --key K [--padding pkcs1|pss] [--hash …] [--signature-format der|raw] [--out SIG] FILE`,
    /// and `keytool sign --format sshsig --namespace N --key K FILE` (ssh-keygen -Y sign).
    struct SignCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sign",
            abstract: "Sign a file with an RSA, EC, Ed25519 or Ed448 key, as openssl dgst -sign / pkeyutl -sign -rawin write it.",
            discussion: """
                RSA: PKCS#1 v1.5 or PSS (salt as long as the digest, openssl's rsa_pss_saltlen:digest), SHA-256 by default. \
                EC: ECDSA over the curve's digest by default (SHA-256 for P-256, SHA-384 for P-384, SHA-512 for P-521); \
                the signature is DER, or r ‖ s with --signature-format raw (JWS, WebAuthn). Ed25519/Ed448: pure EdDSA, no --hash.
                --format sshsig --namespace N writes an armored SSHSIG signature as ssh-keygen -Y sign -n N does \
                (RSA with rsa-sha2-512; --hash sha512, the default, or sha256).
                """
        )

        @Option(help: "The private key file.")
        var key: String

        @OptionGroup var signatureOptions: SignatureOptions

        @OptionGroup var sshSignature: SSHSignatureOptions

        @OptionGroup var sshSigning: SSHSigningOptions

        @Option(name: .shortAndLong, help: "Signature file (default: standard output).")
        var out: String?

        @Argument(help: "The file to sign, or - for standard input.")
        var file: String

        @OptionGroup var passphrase: PassphraseOptions

        func validate() throws {
            if signatureOptions.hash == .sha1 { throw ValidationError("sha1 is accepted for verify only; sign with sha256, sha384 or sha512") }
            try validateSSHSIG()
        }

        func run() throws {
            let privateKey = try KeyLoader.loadPrivate(key, passphrase: passphrase)
            if sshSignature.format == .sshsig { return try signSSHSIG(privateKey) }
            let scheme = try signatureOptions.scheme(for: privateKey.algorithm, pssRestriction: privateKey.rsa?.pssRestriction,
                                                    pssSalt: .digestLength, key: key)
            let data = try InputFile.read(file)
            let signature: [UInt8]
            do {
                signature = try privateKey.sign(data.bytes, scheme: scheme)
            } catch let error as KeyError {
                throw CommandError("\(data.name): \(error.reason)")
            }
            try OutputFile.write(signature, to: out)
        }
    }
}
