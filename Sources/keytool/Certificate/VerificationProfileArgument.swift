import ArgumentParser
import X509Kit

/// `--profile` of `keytool certificate verify`: the rules a path is validated by.
enum VerificationProfileArgument: String, ExpressibleByArgument, CaseIterable {
    /// RFC 5280 path validation only (the default).
    case rfc5280
    /// RFC 5280 plus the CA/Browser Forum's rules for TLS server certificates.
    case webpki

    /// X509Kit's profile.
    var profile: VerificationOptions.Profile {
        switch self {
        case .rfc5280: .rfc5280
        case .webpki: .webPKI
        }
    }
}
