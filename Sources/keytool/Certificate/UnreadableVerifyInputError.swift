import ArgumentParser
import CommandLineSupport

/// `keytool certificate verify`'s verdict for an input that cannot be read (a leaf, intermediate
/// or root store file that is missing or holds no certificate; a CRL file that cannot be read is
/// reported in the answer and not used instead): exit status 2, so that a
/// script tells it from a chain that does not validate (status 1), as `keytool verify` does for
/// an unreadable signature.
struct UnreadableVerifyInputError: CommandLineError {
    /// `FILE: reason`.
    let description: String

    init(_ description: String) {
        self.description = description
    }

    var exitCode: ExitCode { ExitCode(2) }
}
