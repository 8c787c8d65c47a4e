import ArgumentParser
import X509Kit

/// `--profile` of `keytool certificate verify`: the rules a path is validated by.
enum VerificationProfileArgument: String, ExpressibleByArgument, CaseIterable {
    /// RFC 5280 path validation (§6) only (the default); the §4 certificate-profile rules a CA
    /// broke are warnings.
    case rfc5280
    /// RFC 5280 with the §4 certificate-profile rules as failures (`openssl verify -x509_strict`).
    case strict
    /// RFC 5280, the certificate-profile rules and the CA/Browser Forum's rules for TLS server
    /// certificates.
    case webpki

    /// X509Kit's profile.
    var profile: VerificationOptions.Profile {
        switch self {
        case .rfc5280: .rfc5280
        case .strict: .strict
        case .webpki: .webPKI
        }
    }
}
