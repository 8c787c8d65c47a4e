import ArgumentParser
import AsymmetricKeys
import KeytoolSupport
import X509Kit

extension Keytool {
    /// `keytool certificate create --key KEY --subject DN --profile P [--ca CERT --ca-key KEY] …`.
    struct CertificateCreateCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Make a certificate for a key: self-signed, or signed by a CA (--ca, --ca-key).",
            discussion: """
                The profile gives the defaults (root: CA, keyCertSign and cRLSign, 3650 days; intermediate: CA with path \
                length 0, 1825 days; leaf: TLS server, serverAuth, 397 days; client: clientAuth, 397 days; self-signed: \
                serverAuth and clientAuth, 365 days); the options replace them. The serial is 128 random bits. Warnings \
                (a TLS leaf over 398 or 825 days, a CA without keyCertSign, a CA key weaker than the subject's, …) go to \
                standard error.
                """
        )

        @Option(help: ArgumentHelp("The subject's private key (RSA, EC, Ed25519, Ed448); self-signed certificates are signed with it.", valueName: "file"))
        var key: String

        @Option(help: ArgumentHelp("The subject as RFC 4514 text: 'CN=www.example.com,O=Example,C=US' (most specific first); '' for none (then --san is needed).", valueName: "dn"))
        var subject: String

        @OptionGroup var issuance: CertificateIssuanceArguments
        @OptionGroup var extensionArguments: CertificateExtensionArguments
        @OptionGroup var passphrase: PassphraseOptions
        @OptionGroup var newPassphrase: NewPassphraseOptions

        func validate() throws {
            _ = try DistinguishedName(subjectOption: subject)
            _ = try extensionArguments.options()
            try extensionArguments.validate(for: issuance.profile)
            if issuance.caCertificate == nil && issuance.profile == .intermediate {
                throw ValidationError("--profile intermediate is signed by a CA: give --ca and --ca-key")
            }
            if issuance.caCertificate != nil && issuance.profile.isSelfIssued {
                throw ValidationError("--profile \(issuance.profile.rawValue) is self-signed: drop --ca/--ca-key, or use --profile intermediate, leaf or client")
            }
            if issuance.format != .pkcs12 && newPassphrase.isGiven {
                throw ValidationError("--new-passphrase-file/--new-passphrase-env apply to --format pkcs12")
            }
        }


        func run() throws {
            let privateKey = try KeyLoader.loadPrivate(key, passphrase: passphrase)
            let publicKey: PublicKey
            do { publicKey = try privateKey.publicKey() } catch let error as KeyError { throw CommandError("\(KeyLoader.displayName(key)): \(error.reason)") }
            let authority = try issuance.loadAuthority(passphrase: passphrase)
            let issuer: CertificateBuilder.Issuer = authority.map { .authority(certificate: $0.certificate, key: $0.key) } ?? .selfSigned(privateKey)
            var builder = CertificateBuilder(profile: issuance.profile, subject: try DistinguishedName(subjectOption: subject), publicKey: publicKey, issuer: issuer)
            builder.extensions = try extensionArguments.options()
            try issuance.apply(to: &builder)
            try issuance.issue(builder, subjectKey: privateKey, chain: authority?.chain ?? [], newPassphrase: newPassphrase)
        }
    }
}
