import ArgumentParser
import CommandLineSupport
import KeytoolSupport

extension Keytool {
    /// `keytool fetch …`: replaces this process with `keytool-fetch`, the download pipeline's own
    /// program, given the same arguments. The HTTP client and Foundation it needs are linked there,
    /// not here, so the key commands start as fast as a small C tool.
    ///
    /// `keytool-fetch` is looked for beside `keytool` first, then on `PATH`. `Keytool.main` hands
    /// `fetch` (and `help fetch`) over before parsing; the command is registered only so that
    /// keytool's help lists it, and has no `run()` of its own.
    struct FetchLauncher: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fetch",
            abstract: "Download a payload, decrypt it and write it (the download pipeline; see 'keytool fetch --help')."
        )

        /// The name of the program that does the work.
        static let programName = "keytool-fetch"

        /// The first argument by which `keytool` hands `keytool-fetch` a JOSE command whose
        /// `--jwks` is a URL (`keytool-fetch --jose jwt verify …`).
        static let joseArgument = "--jose"

        /// Runs `keytool-fetch` with `arguments` in place of this process; returns only by exiting
        /// with status 1 and a message when it cannot be found or started.
        static func launch(_ arguments: [String]) -> Never {
            let candidates = locations()
            for path in candidates where SystemIO.fileExists(path) {
                let failure = SystemIO.execute(path, arguments: [programName] + arguments)
                printError("cannot run \(path): \(SystemIO.errorDescription(failure))")
                SystemIO.exit(1)
            }
            printError("'keytool fetch' needs the \(programName) program, installed beside keytool; looked for \(candidates.joined(separator: ", "))")
            SystemIO.exit(1)
        }

        /// Where `keytool-fetch` may be: this program's directory, then each `PATH` entry.
        private static func locations() -> [String] {
            var directories: [String] = []
            let ownPath = SystemIO.executablePath() ?? CommandLine.arguments.first ?? ""
            if let slash = ownPath.lastIndex(of: "/") { directories.append(String(ownPath[..<slash])) }
            if let path = SystemIO.environment("PATH") {
                directories += path.split(separator: ":").map(String.init).filter { !$0.isEmpty && !directories.contains($0) }
            }
            return directories.map { $0 + "/" + programName }
        }
    }
}
