import KeyCodec
import ArgumentParser
import ASN1Kit
import AsymmetricKeys
import CommandLineSupport
import KeytoolSupport
import X509Kit

extension CertificateProfile: ExpressibleByArgument {}

/// What `keytool certificate create` and `sign` share beyond the extensions: the profile, the
/// validity, the path length, RSA-PSS, the CA, the output.
struct CertificateIssuanceArguments: ParsableArguments {
    @Option(help: ArgumentHelp("root, intermediate, leaf (TLS server), client or self-signed: the defaults of key usage, EKU, basic constraints and validity.", valueName: "profile"))
    var profile: CertificateProfile

    @Option(help: ArgumentHelp("Validity in days from --not-before (default: the profile's: root 3650, intermediate 1825, leaf and client 397, self-signed 365).", valueName: "n"))
    var days: Int?

    @Option(name: .customLong("not-before"), help: ArgumentHelp("Start of the validity: RFC 3339 (2026-01-01T00:00:00Z) or YYYYMMDDHHMMSSZ (default: now).", valueName: "time"),
            transform: CertificateTimeArgument.parser(for: "--not-before"))
    var notBefore: CertificateTimeArgument?

    @Option(name: .customLong("not-after"), help: ArgumentHelp("End of the validity, as --not-before.", valueName: "time"),
            transform: CertificateTimeArgument.parser(for: "--not-after"))
    var notAfter: CertificateTimeArgument?

    @Option(name: .customLong("path-len"), help: ArgumentHelp("The CA's path length: how many CAs may follow it (root, intermediate only; intermediate default 0).", valueName: "n"))
    var pathLength: Int?

    @Flag(name: .customLong("rsa-pss"), help: "Sign with RSASSA-PSS (SHA-256, MGF1-SHA-256, 32-byte salt) instead of PKCS#1 v1.5 (RSA issuer keys).")
    var rsaPSS = false

    @Option(name: .customLong("ca"), help: ArgumentHelp("The issuing CA's certificate (PEM or DER; a PEM chain's other certificates go into a pkcs12 output).", valueName: "file"))
    var caCertificate: String?

    @Option(name: .customLong("ca-key"), help: ArgumentHelp("The issuing CA's private key (its passphrase as for --key: --passphrase-file/--passphrase-env or a prompt).", valueName: "file"))
    var caKey: String?

    @Option(help: ArgumentHelp("pem (default), der, or pkcs12 (the certificate with its key and the CA chain, under --new-passphrase-file/--new-passphrase-env).", valueName: "format"))
    var format: CertificateOutputFormat = .pem

    @Option(name: .shortAndLong, help: "The output file (default: standard output).")
    var out: String?

    @Flag(help: "Replace an existing output file.")
    var force = false

    func validate() throws {
        if days != nil && notAfter != nil { throw ValidationError("give --days or --not-after, not both") }
        if let days, !(1...CertificateBuilder.maximumDays).contains(days) {
            throw ValidationError("--days must be 1 to \(CertificateBuilder.maximumDays), not \(days)")
        }
        if let pathLength, pathLength < 0 { throw ValidationError("--path-len must be 0 or more, not \(pathLength)") }
        if pathLength != nil && !profile.isCertificateAuthority {
            throw ValidationError("--path-len applies to CA certificates (--profile root or intermediate), not to --profile \(profile.rawValue) (RFC 5280 §4.2.1.9)")
        }
        if let start = notBefore?.secondsSince1970, let end = notAfter?.secondsSince1970, end <= start {
            throw ValidationError("--not-after (\(CertificateTime.text(end))) is not after --not-before (\(CertificateTime.text(start)))")
        }
        if (caCertificate == nil) != (caKey == nil) { throw ValidationError("--ca and --ca-key go together") }
    }

    /// Sets the validity, path length and signature options on `builder`.
    func apply(to builder: inout CertificateBuilder) throws {
        builder.notBefore = notBefore?.secondsSince1970
        builder.notAfter = notAfter?.secondsSince1970
        builder.days = days
        builder.extensions.pathLength = pathLength
        builder.usesRSAPSS = rsaPSS
    }

    /// The CA certificate (the one whose key is the CA key) and its key, with the other
    /// certificates of the `--ca` file; `nil` without `--ca`.
    func loadAuthority(passphrase: PassphraseOptions) throws -> (certificate: Certificate, key: PrivateKey, chain: [Certificate])? {
        guard let caCertificate, let caKey else { return nil }
        let key = try KeyLoader.loadPrivate(caKey, passphrase: passphrase)
        let (input, entries) = try KeyLoader.loadAll(caCertificate, passphrase: passphrase)
        let certificates = entries.compactMap(\.certificate)
        guard !certificates.isEmpty else { throw CommandError("\(input.name): holds no X.509 certificate (--ca)") }
        let publicKey: PublicKey
        do { publicKey = try key.publicKey() } catch let error as KeyError { throw CommandError("\(KeyLoader.displayName(caKey)): \(error.reason) (--ca-key)") }
        guard let certificate = certificates.first(where: { $0.publicKey == publicKey }) else {
            throw CommandError("\(input.name): no certificate in it is for the key of --ca-key \(KeyLoader.displayName(caKey))")
        }
        return (certificate, key, certificates)
    }

    /// Builds, prints the warnings on standard error, and writes the certificate.
    func issue(_ builder: CertificateBuilder, subjectKey: PrivateKey?, chain: [Certificate], newPassphrase: NewPassphraseOptions) throws {
        let output: BuilderOutput
        do {
            output = try builder.build(now: SystemIO.secondsSinceEpoch())
        } catch let error as CertificateError {
            throw CommandError(error.reason)
        }
        for warning in output.warnings { SystemIO.writeStandardError("keytool: warning: \(warning)\n") }
        switch format {
        case .pem:
            try OutputFile.writeNew(Array(PEMBlock(label: "CERTIFICATE", bytes: output.der).pemText.utf8), to: out, mode: 0o644, force: force)
        case .der:
            try OutputFile.writeNew(output.der, to: out, mode: 0o644, force: force)
        case .pkcs12:
            guard let subjectKey else {
                throw CommandError("--format pkcs12 stores the certificate with its private key, which signing a request does not have: use pem or der")
            }
            let certificates = [output.der] + chain.map { Array($0.derEncoded) }
            let bytes: [UInt8]
            do {
                bytes = try PKCS12File.encode(key: subjectKey, certificates: certificates, passphrase: try newPassphrase.read())
            } catch let error as KeyError {
                throw CommandError("the PKCS#12 file: \(error.reason)")
            }
            try OutputFile.writeNew(bytes, to: out, mode: 0o600, force: force)
        }
    }
}
