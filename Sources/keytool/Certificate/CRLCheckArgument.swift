import ArgumentParser
import X509Kit

/// `--crl-check` of `keytool certificate verify`: which certificates of the path need a usable CRL
/// among those given with `--crl`.
enum CRLCheckArgument: String, ExpressibleByArgument, CaseIterable {
    /// Every certificate but the trust anchor (the default; OpenSSL's `-crl_check_all`).
    case all
    /// The leaf only (OpenSSL's `-crl_check`); a CRL that revokes an intermediate still fails it.
    case leaf

    /// X509Kit's scope.
    var scope: VerificationOptions.RevocationScope {
        switch self {
        case .all: .wholePath
        case .leaf: .leafOnly
        }
    }
}
