import ArgumentParser
import CryptoOpenSSL
import AsymmetricKeys
import KeytoolSupport
import KeyCodec

extension Keytool {
    /// `keytool verify --key K [--padding …] [--hash …] --signature SIG FILE`, and SSHSIG
    /// signatures with `--namespace N` and `--key K` or `--allowed-signers F --identity I`.
    struct VerifyCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Verify an RSA, ECDSA, Ed25519 or Ed448 signature, raw or SSHSIG; exit 0 when it verifies, 1 when it does not, 2 when the signature cannot be read.",
            discussion: """
                PSS accepts any salt length (the length is recovered from the signature). Options as for sign. \
                An SSHSIG signature (ssh-keygen -Y sign) is detected; it is checked against --key (ssh-keygen -Y check-novalidate) \
                or against an allowed_signers file for --identity (ssh-keygen -Y verify), in --namespace. \
                Signatures by FIDO security keys (sk-ecdsa-sha2-nistp256@openssh.com, sk-ssh-ed25519@openssh.com, \
                webauthn-sk-ecdsa-sha2-nistp256@openssh.com) are verified as OpenSSH's PROTOCOL.u2f says, \
                and a 'Security key:' line shows the authenticator's flags (user presence, user verification) and counter.
                Exit status: 0 verified; 1 a well-formed signature that does not verify, or a signer not allowed; \
                2 a signature file that cannot be read (empty, text, SSHSIG where raw bytes are expected, \
                raw r ‖ s where DER is expected, wrong length); 64 usage error.
                """
        )

        @Option(help: "The key file (public or private).")
        var key: String?

        @OptionGroup var signatureOptions: SignatureOptions

        @OptionGroup var sshSignature: SSHSignatureOptions

        @OptionGroup var allowedSigners: AllowedSignersOptions

        @Option(help: "The signature file (raw bytes, or an SSHSIG signature).")
        var signature: String

        @Argument(help: "The signed file, or - for standard input.")
        var file: String

        @OptionGroup var passphrase: PassphraseOptions

        func validate() throws {
            if signature == "-" && file == "-" { throw ValidationError("the signature and the data cannot both come from standard input") }
            if allowedSigners.allowedSigners != nil {
                if key != nil { throw ValidationError("give --key or --allowed-signers, not both") }
                if allowedSigners.identity == nil { throw ValidationError("--allowed-signers needs --identity (the signer's principal)") }
                if sshSignature.namespace == nil { throw ValidationError("--allowed-signers needs --namespace") }
            } else {
                if key == nil { throw ValidationError("give --key (or, for SSHSIG, --allowed-signers with --identity)") }
                if allowedSigners.identity != nil { throw ValidationError("--identity goes with --allowed-signers") }
            }
            if sshSignature.format == .sshsig && sshSignature.namespace == nil { throw ValidationError("--format sshsig needs --namespace") }
        }

        func run() throws {
            let signatureFile = try InputFile.read(signature)
            if sshSignature.format == .sshsig || allowedSigners.allowedSigners != nil
                || (sshSignature.format == nil && SSHSignature.isSSHSignature(signatureFile.bytes)) {
                return try verifySSHSignature(signatureFile)
            }
            guard let key else { throw ValidationError("give --key") }
            if sshSignature.namespace != nil { throw ValidationError("--namespace applies to SSHSIG signatures") }
            let decoded = try KeyLoader.load(key, passphrase: passphrase)
            let publicKey = try decoded.key.publicKey()
            let scheme = try signatureOptions.scheme(for: decoded.key.algorithm, pssRestriction: publicKey.rsa?.pssRestriction,
                                                    pssSalt: .auto, key: key)
            try SignatureFileReader.check(signatureFile.bytes, name: signatureFile.name, key: publicKey, scheme: scheme)
            let data = try InputFile.read(file)
            let ok: Bool
            do {
                ok = try publicKey.verify(signatureFile.bytes, for: data.bytes, scheme: scheme)
            } catch let error as KeyError where error.code == .malformed {
                throw UnreadableSignatureError(signatureFile.name, error.reason)
            } catch let error as KeyError {
                throw CommandError("\(data.name): \(error.reason)")
            }
            guard ok else { throw CommandError("\(data.name): signature does not verify") }
            print("Verified OK")
        }
    }
}
