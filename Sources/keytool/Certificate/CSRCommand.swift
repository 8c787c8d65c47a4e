import ArgumentParser

extension Keytool {
    /// `keytool csr create`: certification requests (PKCS#10).
    struct CSRCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "csr",
            abstract: "Make certification requests (PKCS#10) for a CA to sign.",
            subcommands: [CSRCreateCommand.self]
        )
    }
}
