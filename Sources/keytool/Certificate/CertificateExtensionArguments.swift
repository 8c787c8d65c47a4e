import ArgumentParser
import ASN1Kit
import AsymmetricKeys
import X509Kit

/// The extension options `keytool certificate create|sign` and `keytool csr create` share:
/// `--san`, `--key-usage`, `--eku`, `--permit`, `--exclude`, `--policy`, `--ocsp`, `--ca-issuers`,
/// `--crl-url`.
struct CertificateExtensionArguments: ParsableArguments {
    @Option(name: .customLong("san"), help: ArgumentHelp("A subject alternative name: dns:NAME, ip:ADDRESS (IPv4 or IPv6), email:ADDRESS or uri:URI. Repeatable.", valueName: "type:name"))
    var subjectAlternativeNames: [String] = []

    @Option(name: .customLong("key-usage"), help: ArgumentHelp("Key usages instead of the profile's, comma-separated: digitalSignature, nonRepudiation, keyEncipherment, dataEncipherment, keyAgreement, keyCertSign, cRLSign, encipherOnly, decipherOnly. Repeatable.", valueName: "names"))
    var keyUsage: [String] = []

    @Option(name: .customLong("eku"), help: ArgumentHelp("Extended key usages instead of the profile's, comma-separated: serverAuth, clientAuth, codeSigning, emailProtection, timeStamping, OCSPSigning or dotted OIDs; 'none' for no extension. Repeatable.", valueName: "names"))
    var extendedKeyUsage: [String] = []

    @Option(name: .customLong("permit"), help: ArgumentHelp("A permitted name-constraint subtree (CAs): dns:DOMAIN, ip:CIDR, email:DOMAIN|ADDRESS, uri:HOST|.DOMAIN or dirname:DN. Repeatable.", valueName: "type:name"))
    var permitted: [String] = []

    @Option(name: .customLong("exclude"), help: ArgumentHelp("An excluded name-constraint subtree (CAs), in the forms of --permit. Repeatable.", valueName: "type:name"))
    var excluded: [String] = []

    @Option(name: .customLong("policy"), help: ArgumentHelp("A certificate policy OID (2.23.140.1.2.1 for domain-validated). Repeatable.", valueName: "oid"))
    var policies: [String] = []

    @Option(name: .customLong("ocsp"), help: ArgumentHelp("An OCSP responder URL (authority information access). Repeatable.", valueName: "url"))
    var ocspURLs: [String] = []

    @Option(name: .customLong("ca-issuers"), help: ArgumentHelp("A URL of the issuer's certificate (authority information access). Repeatable.", valueName: "url"))
    var caIssuerURLs: [String] = []

    @Option(name: .customLong("crl-url"), help: ArgumentHelp("A CRL distribution point URL. Repeatable.", valueName: "url"))
    var crlURLs: [String] = []

    /// The options, each text read by X509Kit; errors name the flag.
    func options() throws -> CertificateExtensionOptions {
        var options = CertificateExtensionOptions()
        options.subjectAlternativeNames = try subjectAlternativeNames.map { text in
            try flagged("--san") { try GeneralNameText.subjectAlternativeName(text) }
        }
        if !keyUsage.isEmpty {
            let names = Self.commaSeparated(keyUsage)
            options.keyUsage = try flagged("--key-usage") { try CertificateExtensionOptions.keyUsage(named: names) }
        }
        if !extendedKeyUsage.isEmpty {
            let names = Self.commaSeparated(extendedKeyUsage)
            options.extendedKeyUsage = names == ["none"] ? [] : try names.map { name in
                try flagged("--eku") { try CertificateExtensionOptions.extendedKeyUsage(named: name) }
            }
        }
        options.permittedSubtrees = try permitted.map { text in try flagged("--permit") { try GeneralNameText.constraint(text) } }
        options.excludedSubtrees = try excluded.map { text in try flagged("--exclude") { try GeneralNameText.constraint(text) } }
        options.policies = try policies.map { text in
            try flagged("--policy") { try CertificateExtensionOptions.objectIdentifier(text, what: "policy") }
        }
        for (flag, what, urls) in [("--ocsp", "OCSP", ocspURLs), ("--ca-issuers", "CA issuers", caIssuerURLs), ("--crl-url", "CRL distribution point", crlURLs)] {
            for url in urls { try flagged(flag) { try GeneralNameText.checkURL(url, what: what) } }
        }
        options.ocspURLs = ocspURLs
        options.caIssuerURLs = caIssuerURLs
        options.crlURLs = crlURLs
        return options
    }

    /// Refuses name constraints for a profile that is not a CA.
    func validate(for profile: CertificateProfile) throws {
        if (!permitted.isEmpty || !excluded.isEmpty) && !profile.isCertificateAuthority {
            throw ValidationError("--permit and --exclude (name constraints) apply to CA certificates only (--profile root or intermediate; RFC 5280 §4.2.1.10)")
        }
    }

    static func commaSeparated(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
    }
}

/// Runs `body`, turning a ``CertificateError`` into a ``ValidationError`` that names `flag`.
func flagged<T>(_ flag: String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as CertificateError {
        throw ValidationError("\(flag): \(error.reason)")
    }
}

extension String {
    /// The text without leading and trailing spaces.
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
