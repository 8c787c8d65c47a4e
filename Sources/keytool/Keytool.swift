import ArgumentParser
import CofferErrors
import CommandLineSupport
import KeytoolJOSE

/// `keytool`: inspects, converts, fingerprints, matches, checks, generates and uses keys.
@main
struct Keytool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keytool",
        abstract: "Inspect, convert, fingerprint, match, check, generate and use keys (RSA, EC, Ed25519, Ed448, X25519, X448).",
        discussion: """
            Every command reads FILE or - (stdin); the input format is detected. Passphrases come from \
            --passphrase-file, --passphrase-env or a no-echo prompt, never from the command line.
            Exit status: 0 success, 1 failure with valid usage, 2 a signature verify cannot read, 64 usage error.
            """,
        version: CofferVersion.string,
        subcommands: [
            InspectCommand.self, ConvertCommand.self, FingerprintCommand.self, CheckCommand.self,
            GenerateCommand.self, EncryptCommand.self, DecryptCommand.self, SignCommand.self, VerifyCommand.self, DeriveCommand.self,
            MatchCommand.self, Asn1Command.self, CertificateCommand.self, FetchLauncher.self,
            CSRCommand.self, JWSCommand.self, JWECommand.self, JWTCommand.self,
        ]
    )

    /// `keytool fetch …` and `keytool help fetch` go to `keytool-fetch` before any parsing (so its
    /// own options and help are the ones that apply); everything else is parsed here.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "fetch" {
            FetchLauncher.launch(Array(arguments.dropFirst()))
        }
        if arguments.count == 2, arguments[0] == "help", arguments[1] == "fetch" {
            FetchLauncher.launch(["--help"])
        }
        // A JOSE command whose --jwks is a URL runs in keytool-fetch, which has the HTTP client.
        if let first = arguments.first, ["jws", "jwe", "jwt"].contains(first), RemoteKeys.needsRemoteKeys(arguments) {
            FetchLauncher.launch([FetchLauncher.joseArgument] + arguments)
        }
        await CommandLineTool.main(Keytool.self, name: "keytool", arguments: arguments)
    }
}
