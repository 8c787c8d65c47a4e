import ArgumentParser

/// A failure a command reports in its own words: its description is the one line printed after
/// `TOOL: error: `, naming the file, the key or the byte offset and never a secret (a passphrase,
/// a crypt key, a stored value).
package protocol CommandLineError: Error, CustomStringConvertible {
    /// How the process ends: ``ExitCode/failure`` (1) for a failure with valid usage,
    /// ``ExitCode/validationFailure`` (64) for a usage error, or a status of the command's own
    /// contract (`keytool verify`: 2 for a signature that cannot be read).
    var exitCode: ExitCode { get }
}

extension CommandLineError {
    /// A failure with valid usage (exit status 1) unless the error says otherwise.
    package var exitCode: ExitCode { .failure }
}
