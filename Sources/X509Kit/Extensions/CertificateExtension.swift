import ASN1Kit
import AsymmetricKeys

/// One extension of a certificate, or one a request asks for (RFC 5280 §4.1.2.9).
///
/// ```
/// Extension ::= SEQUENCE {
///      extnID      OBJECT IDENTIFIER,
///      critical    BOOLEAN DEFAULT FALSE,
///      extnValue   OCTET STRING }
/// ```
public struct CertificateExtension: Sendable, Hashable {
    /// The extension's type.
    public var oid: ASN1ObjectIdentifier
    /// Whether a relying party that does not understand it must reject the certificate.
    public var isCritical: Bool
    /// The DER inside `extnValue` (a slice of the input).
    public var value: ArraySlice<UInt8>
    /// The offset of the `Extension` in the input.
    public var offset: Int

    /// Creates an extension from its parts.
    public init(oid: ASN1ObjectIdentifier, isCritical: Bool, value: ArraySlice<UInt8>, offset: Int) {
        self.oid = oid
        self.isCritical = isCritical
        self.value = value
        self.offset = offset
    }

    /// The name `openssl x509 -text` gives the extension (`X509v3 Key Usage`), or the dotted OID.
    public var name: String { Self.names[oid] ?? oid.dotted }

    /// Whether Coffer knows the extension by name (decoded or not).
    public var isKnown: Bool { Self.names[oid] != nil }

    static let subjectAltName: ASN1ObjectIdentifier = "2.5.29.17"
    static let keyUsage: ASN1ObjectIdentifier = "2.5.29.15"
    static let extendedKeyUsage: ASN1ObjectIdentifier = "2.5.29.37"
    static let basicConstraints: ASN1ObjectIdentifier = "2.5.29.19"
    static let subjectKeyIdentifier: ASN1ObjectIdentifier = "2.5.29.14"
    static let authorityKeyIdentifier: ASN1ObjectIdentifier = "2.5.29.35"
    static let nameConstraints: ASN1ObjectIdentifier = "2.5.29.30"
    static let certificatePolicies: ASN1ObjectIdentifier = "2.5.29.32"
    static let crlDistributionPoints: ASN1ObjectIdentifier = "2.5.29.31"
    static let authorityInfoAccess: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.1.1"
    static let policyMappings: ASN1ObjectIdentifier = "2.5.29.33"
    static let policyConstraints: ASN1ObjectIdentifier = "2.5.29.36"
    static let inhibitAnyPolicy: ASN1ObjectIdentifier = "2.5.29.54"
    // CRL (RFC 5280 §5.2) and CRL entry (§5.3) extensions.
    static let crlNumber: ASN1ObjectIdentifier = "2.5.29.20"
    static let reasonCode: ASN1ObjectIdentifier = "2.5.29.21"
    static let invalidityDate: ASN1ObjectIdentifier = "2.5.29.24"
    static let deltaCRLIndicator: ASN1ObjectIdentifier = "2.5.29.27"
    static let issuingDistributionPoint: ASN1ObjectIdentifier = "2.5.29.28"
    static let certificateIssuer: ASN1ObjectIdentifier = "2.5.29.29"
    static let freshestCRL: ASN1ObjectIdentifier = "2.5.29.46"

    static let names: [ASN1ObjectIdentifier: String] = {
        let table: [(String, String)] = [
            ("2.5.29.14", "X509v3 Subject Key Identifier"), ("2.5.29.15", "X509v3 Key Usage"),
            ("2.5.29.17", "X509v3 Subject Alternative Name"), ("2.5.29.18", "X509v3 Issuer Alternative Name"),
            ("2.5.29.19", "X509v3 Basic Constraints"), ("2.5.29.30", "X509v3 Name Constraints"),
            ("2.5.29.31", "X509v3 CRL Distribution Points"), ("2.5.29.32", "X509v3 Certificate Policies"),
            ("2.5.29.33", "X509v3 Policy Mappings"), ("2.5.29.35", "X509v3 Authority Key Identifier"),
            ("2.5.29.36", "X509v3 Policy Constraints"), ("2.5.29.37", "X509v3 Extended Key Usage"),
            ("2.5.29.46", "X509v3 Freshest CRL"), ("2.5.29.54", "X509v3 Inhibit Any Policy"),
            ("1.3.6.1.5.5.7.1.1", "Authority Information Access"), ("1.3.6.1.5.5.7.1.11", "Subject Information Access"),
            ("1.3.6.1.5.5.7.1.24", "TLS Feature"), ("1.3.6.1.5.5.7.48.1.5", "OCSP No Check"),
            ("1.3.6.1.4.1.11129.2.4.2", "CT Precertificate SCTs"), ("1.3.6.1.4.1.11129.2.4.3", "CT Precertificate Poison"),
            ("2.16.840.1.113730.1.1", "Netscape Cert Type"), ("2.16.840.1.113730.1.13", "Netscape Comment"),
        ]
        var names: [ASN1ObjectIdentifier: String] = [:]
        for (dotted, name) in table { names[ASN1ObjectIdentifier(dotted: dotted)!] = name }
        return names
    }()
}
