import ArgumentParser
import CommandLineSupport

/// Runs a command body and turns any failure into `keytool: error: …` on stderr and exit status 1
/// (usage errors from ArgumentParser keep their own status, 64).
package func reportingFailures(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let exit as ExitCode {
        throw exit
    } catch let error as ValidationError {
        throw error
    } catch {
        printError(String(describing: error))
        throw ExitCode(1)
    }
}

/// Writes `keytool: error: message` to stderr.
package func printError(_ message: String) {
    SystemIO.writeStandardError("keytool: error: \(message)\n")
}

/// A failure with a message that already says everything (and names the file).
package struct CommandError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
