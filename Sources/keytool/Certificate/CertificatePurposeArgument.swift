import ArgumentParser
import ASN1Kit
import X509Kit

/// `--purpose` of `keytool certificate verify`: `server`, `client`, `code-signing`, `any`, or an
/// extended key usage OID (`1.3.6.1.5.5.7.3.1`).
struct CertificatePurposeArgument: ExpressibleByArgument, Hashable {
    /// What the leaf must be for; `nil` for `any`.
    var purpose: CertificatePurpose?

    /// The purpose `text` names, or `nil` when it names none.
    init?(argument text: String) {
        switch text {
        case "server": purpose = .serverAuth
        case "client": purpose = .clientAuth
        case "code-signing": purpose = .codeSigning
        case "any": purpose = nil
        default:
            guard let oid = ASN1ObjectIdentifier(dotted: text) else { return nil }
            purpose = .anyOf([oid])
        }
    }

    /// The names; any dotted OID is taken too.
    static var allValueStrings: [String] { ["server", "client", "code-signing", "any"] }

    /// The option's value, or an error that says what it must be (after ArgumentParser's "The
    /// value 'mail' is invalid for '--purpose <purpose>': ").
    static func parse(_ text: String) throws -> Self {
        guard let value = Self(argument: text) else {
            throw ValidationError("must be server, client, code-signing, any or an OID (1.3.6.1.5.5.7.3.1)")
        }
        return value
    }
}
