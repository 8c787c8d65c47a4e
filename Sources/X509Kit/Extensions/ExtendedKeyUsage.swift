import ASN1Kit
import AsymmetricKeys

/// Names of extended key usage purposes (RFC 5280 §4.2.1.12), as OpenSSL's short names.
///
/// ```
/// ExtKeyUsageSyntax ::= SEQUENCE SIZE (1..MAX) OF KeyPurposeId
/// KeyPurposeId ::= OBJECT IDENTIFIER
/// ```
public enum ExtendedKeyUsage {
    /// `serverAuth`, `clientAuth`, `codeSigning`, `emailProtection`, `timeStamping`, `OCSPSigning`,
    /// …, or the dotted OID for a purpose without a name.
    public static func name(of purpose: ASN1ObjectIdentifier) -> String {
        names[purpose] ?? purpose.dotted
    }

    /// The purpose of a name ``name(of:)`` gives (`serverAuth`, any case), or `nil`.
    public static func purpose(named name: String) -> ASN1ObjectIdentifier? {
        let lowered = name.lowercased()
        return names.first { $0.value.lowercased() == lowered }?.key
    }

    static let names: [ASN1ObjectIdentifier: String] = {
        let table: [(String, String)] = [
            ("1.3.6.1.5.5.7.3.1", "serverAuth"), ("1.3.6.1.5.5.7.3.2", "clientAuth"),
            ("1.3.6.1.5.5.7.3.3", "codeSigning"), ("1.3.6.1.5.5.7.3.4", "emailProtection"),
            ("1.3.6.1.5.5.7.3.5", "ipsecEndSystem"), ("1.3.6.1.5.5.7.3.6", "ipsecTunnel"),
            ("1.3.6.1.5.5.7.3.7", "ipsecUser"), ("1.3.6.1.5.5.7.3.8", "timeStamping"),
            ("1.3.6.1.5.5.7.3.9", "OCSPSigning"), ("1.3.6.1.5.5.7.3.17", "ipsecIKE"),
            ("2.5.29.37.0", "anyExtendedKeyUsage"),
        ]
        var names: [ASN1ObjectIdentifier: String] = [:]
        for (dotted, name) in table { names[ASN1ObjectIdentifier(dotted: dotted)!] = name }
        return names
    }()
}
