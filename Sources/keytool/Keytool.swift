import ArgumentParser

/// `keytool`: inspects, converts, fingerprints, checks, generates and uses RSA keys.
@main
struct Keytool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keytool",
        abstract: "Inspect, convert, fingerprint, check, generate and use RSA keys.",
        discussion: """
            Every command reads FILE or - (stdin); the input format is detected. Passphrases come from \
            --passphrase-file, --passphrase-env or a no-echo prompt, never from the command line.
            Exit status: 0 success, 1 failure with valid usage, 64 usage error.
            """,
        subcommands: [
            InspectCommand.self, ConvertCommand.self, FingerprintCommand.self, CheckCommand.self,
            GenerateCommand.self, EncryptCommand.self, DecryptCommand.self, SignCommand.self, VerifyCommand.self, DeriveCommand.self,
            Asn1Command.self, FetchCommand.self,
        ]
    )
}
