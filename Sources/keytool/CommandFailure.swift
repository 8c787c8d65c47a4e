import ArgumentParser
import Foundation

/// Runs a command body and turns any failure into `keytool: error: …` on stderr and exit status 1
/// (usage errors from ArgumentParser keep their own status, 64).
func reportingFailures(_ body: () throws -> Void) throws {
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
func printError(_ message: String) {
    FileHandle.standardError.write(Data("keytool: error: \(message)\n".utf8))
}

/// A failure with a message that already says everything (and names the file).
struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
