import ArgumentParser

/// How every command-line tool starts and ends: parse the arguments once, run the command (async
/// or not), and turn whatever it throws into one report on standard error and an exit status.
///
/// Exit status: 0 on success (and for `--help`, whose text goes to standard output); 1 for a
/// failure with valid usage; 64 for a usage error, which adds ArgumentParser's usage lines after
/// the first; the status a ``CommandLineError`` names (`keytool verify`'s 2 for an unreadable
/// signature); the status a command throws as an ``ExitCode`` after printing its own report.
package enum CommandLineTool {
    /// Runs the command `arguments` (default: the process's) name under `root` and exits.
    ///
    /// - Parameters:
    ///   - name: The tool's name in `NAME: error: …`.
    ///   - translate: The tool's own words for an error type it does not throw itself (a library
    ///     error that reached the top), or `nil` to print the error's description with status 1.
    package static func main<Root: ParsableCommand>(
        _ root: Root.Type, name: String, arguments: [String]? = nil,
        translate: @Sendable (any Error) -> (any CommandLineError)? = { _ in nil }
    ) async -> Never {
        do {
            var command = try root.parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(reporting: error, root: root, name: name, translate: translate)
        }
        SystemIO.exit(0)
    }

    /// Writes `NAME: error: message` to standard error.
    package static func reportError(_ message: String, name: String) {
        SystemIO.writeStandardError("\(name): error: \(message)\n")
    }

    /// The one mapping of errors to reports and exit statuses.
    private static func exit<Root: ParsableCommand>(
        reporting error: any Error, root: Root.Type, name: String, translate: (any Error) -> (any CommandLineError)?
    ) -> Never {
        switch error {
        case let exit as ExitCode:
            // The command has said what went wrong already.
            SystemIO.exit(exit.rawValue)
        case let failure as any CommandLineError:
            reportError(failure.description, name: name)
            SystemIO.exit(failure.exitCode.rawValue)
        default:
            if let failure = translate(error) {
                reportError(failure.description, name: name)
                SystemIO.exit(failure.exitCode.rawValue)
            }
        }
        let status = root.exitCode(for: error)
        if status == .success {
            // --help, help COMMAND, --version: the text goes to standard output.
            SystemIO.writeStandardOutput(Array((root.fullMessage(for: error) + "\n").utf8))
            SystemIO.exit(0)
        }
        guard status == .validationFailure else {
            reportError(String(describing: error), name: name)
            SystemIO.exit(status.rawValue)
        }
        // A usage error: ArgumentParser's message, then its usage lines.
        var message = root.fullMessage(for: error)
        if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
        if message.hasSuffix("\n") { message.removeLast() }
        reportError(message, name: name)
        SystemIO.exit(status.rawValue)
    }
}
