import ArgumentParser
import CofferJSON
import CommandLineSupport
import JOSE

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

    /// `body`, with a ``JOSE/JOSEError`` (named for the input `file`) or a ``JOSECommandError``
    /// thrown as ``refuse(_:json:)`` gives it.
    package static func refusing(file: String, json: Bool, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as JOSEError {
            throw refuse(JOSECommandError(error, file: file), json: json)
        } catch let error as JOSECommandError {
            throw refuse(error, json: json)
        }
    }

    /// Reports a verified token: with `json` one object on standard output (`valid` true, `alg`,
    /// `kid` when the header has one, then `details`); without, `write()` writes the result and
    /// `Verified OK (alg, kid …)` goes to standard error.
    package static func accept(json: Bool, algorithm: String, keyID: String?, details: [JSONValue.Member],
                               write: () throws -> Void) rethrows {
        if json {
            var members: [JSONValue.Member] = [.init("valid", .bool(true)), .init("alg", .string(algorithm))]
            if let keyID { members.append(.init("kid", .string(keyID))) }
            SystemIO.writeStandardOutput(Array((JSONValue.object(members + details).serialized + "\n").utf8))
        } else {
            try write()
            SystemIO.writeStandardError("Verified OK (\(algorithm)\(keyID.map { ", kid \($0)" } ?? ""))\n")
        }
    }
}
