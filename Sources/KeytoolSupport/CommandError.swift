import CommandLineSupport

/// Writes `keytool: error: message` to stderr (for a command that reports several failures and
/// then throws ``ExitCode``).
package func printError(_ message: String) {
    CommandLineTool.reportError(message, name: "keytool")
}

/// A failure with a message that already says everything (and names the file); reported by
/// ``CommandLineTool`` as `keytool: error: …` with exit status 1.
package struct CommandError: CommandLineError {
    package let description: String
    package init(_ description: String) { self.description = description }
}
