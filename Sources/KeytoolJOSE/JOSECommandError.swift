import ArgumentParser
import CommandLineSupport
import JOSE

/// A JOSE verdict or failure as keytool reports it: `FILE: reason`, with the exit status the JOSE
/// commands promise — 1 for a well-formed input that is refused (a signature that does not verify,
/// an algorithm the key does not allow, an expired token, a wrong audience, a tag that does not
/// match), 2 for an input that cannot be read at all (not a token, bad base64url or JSON, over the
/// size cap).
package struct JOSECommandError: CommandLineError {
    /// `FILE: reason`.
    package let description: String
    /// 1 or 2.
    package let exitCode: ExitCode
    /// The JOSE error code's name (`invalidSignature`, `expired`), for `--json`.
    package let code: String

    /// The report of `error` met while reading `file`.
    package init(_ error: JOSEError, file: String) {
        description = "\(file): \(error.description)"
        code = error.code.name
        exitCode = Self.unreadable.contains(error.code) ? ExitCode(2) : ExitCode(1)
    }

    /// An input that cannot be read (a missing token file): `description`, exit status 2.
    package init(unreadable description: String) {
        self.description = description
        code = "unreadable"
        exitCode = ExitCode(2)
    }

    /// The codes that mean the input could not be read, rather than read and refused.
    private static let unreadable: Set<JOSEError.Code> = [.malformed, .tooLarge]
}
