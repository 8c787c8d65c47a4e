import ArgumentParser
import AsymmetricKeys
import KeytoolSupport
import CofferJSON
import KeyCodec
import X509Kit

/// How the commands that list entries (inspect, fingerprint, match) report the entries of a file
/// they could not read, and what `--strict` refuses.
enum EntryReport {
    /// The JSON object of an entry that could not be read: `file` and `error` with `location`,
    /// `line`, `offset`, `code` and `reason`.
    static func json(_ failure: KeyEntryFailure, file: String) -> JSONObject {
        var error = JSONObject()
        error.set("location", failure.location)
        error.set("line", failure.line)
        error.set("offset", failure.offset)
        error.set("code", String(describing: failure.error.code))
        error.set("reason", failure.error.reason)
        var object = JSONObject()
        object.set("file", file)
        object.set("error", error)
        return object
    }

    /// The verdict of a command that listed a file's entries, after everything was printed:
    /// exit 1 when an entry could not be read, and with `--strict` when an entry was read with a
    /// warning (each named on standard error; failures were reported as they were listed).
    ///
    /// - Parameters:
    ///   - otherProblems: What `--strict` refuses in entries the key reader does not read (a
    ///     CRL's warnings), printed with the rest.
    ///   - otherFailures: How many such entries could not be read (reported already).
    static func finish(_ result: KeyDecodingResult, file: String, strict: Bool,
                       otherProblems: [String] = [], otherFailures: Int = 0) throws {
        if strict {
            let problems = strictProblems(result, file: file) + otherProblems
            for problem in problems.dropFirst(result.failures.count) { printError(problem) }
            if !problems.isEmpty { throw ExitCode(1) }
        }
        if !result.failedEntries.isEmpty || otherFailures > 0 { throw ExitCode(1) }
    }

    /// What `--strict` refuses in a file that was read: one message per failed entry, per
    /// warning, and per signature the file alone can check (a self-issued certificate's, a
    /// request's) that does not verify, each naming the file and the entry.
    static func strictProblems(_ result: KeyDecodingResult, file: String) -> [String] {
        var problems = result.failures.map { KeyLoader.message($0, file: file) }
        for (index, entry) in result.entries.enumerated() {
            for warning in entry.warnings {
                problems.append("\(file): entry \(index + 1): \(warning) (refused by --strict)")
            }
            // A signature that can be checked from the file alone and does not verify.
            if entry.certificate?.selfSignatureValid == false {
                problems.append("\(file): entry \(index + 1): the self-issued certificate's signature does not verify with its own key (refused by --strict)")
            }
            if let request = entry.request, !request.signatureValid {
                problems.append("\(file): entry \(index + 1): the request's signature does not verify (refused by --strict)")
            }
        }
        return problems
    }
}
