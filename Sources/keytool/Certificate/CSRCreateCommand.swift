import ArgumentParser
import ASN1Kit
import AsymmetricKeys
import CommandLineSupport
import KeytoolSupport
import X509Kit

extension Keytool {
    /// `keytool csr create --key KEY --subject DN [--san …]… [-o OUT]`.
    struct CSRCreateCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Make a certification request (PKCS#10) signed by the key, asking for the given extensions.",
            discussion: "The extensions (--san, --key-usage, --eku, …) go into an extensionRequest attribute; the CA decides which it copies."
        )

        @Option(help: ArgumentHelp("The private key that signs the request (RSA, EC, Ed25519, Ed448).", valueName: "file"))
        var key: String

        @Option(help: ArgumentHelp("The subject as RFC 4514 text: 'CN=www.example.com,O=Example,C=US'.", valueName: "dn"))
        var subject: String

        @OptionGroup var extensionArguments: CertificateExtensionArguments

        @Flag(name: .customLong("rsa-pss"), help: "Sign with RSASSA-PSS instead of PKCS#1 v1.5 (RSA keys).")
        var rsaPSS = false

        @Flag(help: "Write DER instead of PEM.")
        var der = false

        @Option(name: .shortAndLong, help: "The output file (default: standard output).")
        var out: String?

        @Flag(help: "Replace an existing output file.")
        var force = false

        @OptionGroup var passphrase: PassphraseOptions

        func validate() throws {
            _ = try DistinguishedName(subjectOption: subject)
            _ = try extensionArguments.options()
        }


        func run() throws {
            let privateKey = try KeyLoader.loadPrivate(key, passphrase: passphrase)
            var builder = CertificationRequestBuilder(subject: try DistinguishedName(subjectOption: subject), key: privateKey)
            builder.extensions = try extensionArguments.options()
            builder.usesRSAPSS = rsaPSS
            let output: BuilderOutput
            do {
                output = try builder.build()
            } catch let error as CertificateError {
                throw CommandError(error.reason)
            }
            for warning in output.warnings { SystemIO.writeStandardError("keytool: warning: \(warning)\n") }
            let bytes = der ? output.der : Array(PEMBlock(label: "CERTIFICATE REQUEST", bytes: output.der).pemText.utf8)
            try OutputFile.writeNew(bytes, to: out, mode: 0o644, force: force)
        }
    }
}
