import ArgumentParser
import CommandLineSupport
import KeytoolJOSE

/// The JOSE commands as `keytool` hands them over when `--jwks` names a URL
/// (`keytool-fetch --jose jwt verify … --jwks https://…`): the same commands, with the remote key
/// source installed.
struct FetchJOSECommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keytool",
        subcommands: [JWSCommand.self, JWECommand.self, JWTCommand.self]
    )

    /// Runs `arguments` (after `--jose`) as a keytool JOSE command.
    static func main(_ arguments: [String]) async -> Never {
        RemoteKeys.install(FetchRemoteKeySource())
        await CommandLineTool.main(FetchJOSECommand.self, name: "keytool", arguments: arguments)
    }
}
