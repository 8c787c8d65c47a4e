import ArgumentParser
import CommandLineSupport

/// `keytool verify`'s verdict for a signature that cannot be read at all (an empty file, base64 or
/// hex text, an SSHSIG file where raw bytes were expected, a raw r ‖ s ECDSA signature read as DER,
/// a wrong length): exit status 2, so that a script tells it from a well-formed signature that does
/// not verify (status 1).
struct UnreadableSignatureError: CommandLineError {
    /// `SIG: cannot read the signature: reason`.
    let description: String

    init(_ file: String, _ reason: String) {
        description = "\(file): cannot read the signature: \(reason)"
    }

    var exitCode: ExitCode { ExitCode(2) }
}
