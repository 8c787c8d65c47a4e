import ArgumentParser
import Logging

/// `--verbose`, `--log-level LEVEL`, `--log-format text|json`: where a tool's swift-log events go.
///
/// Without any of them nothing is logged. With one, ``makeLogger(label:)`` bootstraps swift-log
/// once with a ``StandardErrorLogHandler`` at that level (`--verbose` is `debug`) and returns the
/// tool's logger; events are written to standard error, as text lines or one JSON object per line
/// (`timestamp`, `level`, `label`, `message`, `metadata`) for log shippers. What the libraries log
/// never holds secrets, header values or payload bytes.
package struct LogOptions: ParsableArguments {
    package init() {}

    @Flag(name: .customLong("verbose"), help: "Log the tool's events to standard error (the same as --log-level debug).")
    package var verbose = false

    @Option(name: .customLong("log-level"),
            help: ArgumentHelp("Log events at this level and above to standard error: trace, debug, info, notice, warning, error, critical.",
                               valueName: "level"))
    package var level: LogLevelArgument?

    @Option(name: .customLong("log-format"), help: ArgumentHelp("How log events are written: text (default) or json (one object per line).",
                                                                valueName: "format"))
    package var format: StandardErrorLogHandler.Format?

    package func validate() throws {
        if verbose, let level, level.level != .debug {
            throw ValidationError("give either --verbose or --log-level, not both")
        }
    }

    /// The level the flags ask for, or `nil` when logging is off.
    package var logLevel: Logger.Level? {
        if let level { return level.level }
        if verbose || format != nil { return .debug }
        return nil
    }

    /// Bootstraps logging (once per process) and returns the logger for `label`, or `nil` when
    /// no logging flag was given.
    package func makeLogger(label: String) -> Logger? {
        guard let logLevel else { return nil }
        StandardErrorLogHandler.bootstrap(level: logLevel, format: format ?? .text)
        var logger = Logger(label: label)
        logger.logLevel = logLevel
        return logger
    }
}

/// A swift-log level as the command line names it.
package struct LogLevelArgument: ExpressibleByArgument, Sendable {
    package let level: Logger.Level

    package init?(argument: String) {
        guard let level = Logger.Level(rawValue: argument.lowercased()) else { return nil }
        self.level = level
    }

    package static var allValueStrings: [String] { Logger.Level.allCases.map(\.rawValue) }
}
