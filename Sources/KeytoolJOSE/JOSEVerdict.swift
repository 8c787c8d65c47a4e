import ArgumentParser
import CofferJSON
import CommandLineSupport

/// How a verifying command reports a refusal: the error on standard error (`keytool: error: …`),
/// or with `--json` a JSON verdict on standard output (`{"valid": false, "error": …, "code": …}`)
/// and the same exit status.
package enum JOSEVerdict {
    /// The error to throw for `error`.
    package static func refuse(_ error: JOSECommandError, json: Bool) -> any Error {
        guard json else { return error }
        let verdict = JSONValue.object([
            .init("valid", .bool(false)), .init("error", .string(error.description)), .init("code", .string(error.code)),
        ])
        SystemIO.writeStandardOutput(Array((verdict.serialized + "\n").utf8))
        return error.exitCode
    }
}
