import ArgumentParser

extension Keytool {
    /// `keytool certificate create|sign|verify`: make certificates as a small CA, and validate a
    /// certificate's path to trusted roots.
    struct CertificateCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "certificate",
            abstract: "Make certificates (self-signed, or signed by a CA) and verify a certificate's path to trusted roots.",
            subcommands: [
                CertificateCreateCommand.self, CertificateSignCommand.self,
                CertificateVerifyCommand.self,
            ]
        )
    }
}
