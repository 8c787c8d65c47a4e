import ArgumentParser
import CommandLineSupport

/// Runs a command body and turns any failure into `keytool: error: …` on stderr and exit status 1
/// (usage errors from ArgumentParser keep their own status, 64).
package func reportingFailures(_ body: () throws -> Void) throws {
    try body()
}

/// Writes `keytool: error: message` to stderr (for a command that reports several failures and
/// then throws ``ExitCode``).
package func printError(_ message: String) {
    CommandLineTool.reportError(message, name: "keytool")
}

/// A failure with a message that already says everything (and names the file).
package struct CommandError: CommandLineError {
    package let description: String
    package init(_ description: String) { self.description = description }
}
