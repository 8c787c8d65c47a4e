import KeyCodec
import ArgumentParser
import AsymmetricKeys
import KeytoolSupport
import X509Kit

extension Keytool {
    /// `keytool certificate sign CSR --ca CERT --ca-key KEY --profile P [--copy-extensions] …`.
    struct CertificateSignCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sign",
            abstract: "Sign a certification request (PKCS#10) as a CA.",
            discussion: """
                The request's signature is checked first. Its subject, key and subject alternative names are kept (with \
                any --san added). The other extensions it asks for are copied only with --copy-extensions, and never \
                basicConstraints, keyUsage, extendedKeyUsage, the key identifiers or nameConstraints: the profile and \
                options decide those. What is not copied is named in a warning.
                """
        )

        @Argument(help: "The certification request (PEM or DER).")
        var request: String

        @Flag(name: .customLong("copy-extensions"), help: "Copy the request's extensions (except those the CA decides).")
        var copyExtensions = false

        @OptionGroup var issuance: CertificateIssuanceArguments
        @OptionGroup var extensionArguments: CertificateExtensionArguments
        @OptionGroup var passphrase: PassphraseOptions

        func validate() throws {
            _ = try extensionArguments.options()
            try extensionArguments.validate(for: issuance.profile)
            guard issuance.caCertificate != nil else { throw ValidationError("signing a request needs --ca and --ca-key") }
            if issuance.profile.isSelfIssued {
                throw ValidationError("--profile \(issuance.profile.rawValue) is self-signed; a signed request uses --profile intermediate, leaf or client")
            }
            if issuance.format == .pkcs12 {
                throw ValidationError("--format pkcs12 needs the subject's private key, which a request does not hold: use pem or der")
            }
        }

        func run() throws {
            let (input, entries) = try KeyLoader.loadAll(request, passphrase: passphrase)
            guard let csr = entries.compactMap(\.request).first else {
                throw CommandError("\(input.name): holds no certification request")
            }
            guard let authority = try issuance.loadAuthority(passphrase: passphrase) else { return }
            var builder: CertificateBuilder
            do {
                builder = try CertificateBuilder(request: csr, profile: issuance.profile,
                                                 issuer: .authority(certificate: authority.certificate, key: authority.key),
                                                 copyExtensions: copyExtensions)
            } catch let error as CertificateError {
                throw CommandError("\(input.name): \(error.reason)")
            }
            let options = try extensionArguments.options()
            builder.extensions = options
            try issuance.apply(to: &builder)
            try issuance.issue(builder, subjectKey: nil, chain: authority.chain, newPassphrase: NewPassphraseOptions())
        }
    }
}
