import ASN1Kit
import AsymmetricKeys

/// The extensions a ``CertificateBuilder`` or ``CertificationRequestBuilder`` writes beyond the
/// profile's defaults. `nil` or empty means "the profile's default" or "none".
public struct CertificateExtensionOptions: Sendable, Hashable {
    /// Subject alternative names (``GeneralNameText/subjectAlternativeName(_:)`` reads them).
    public var subjectAlternativeNames: [GeneralName] = []
    /// The key usage; `nil`: the profile's.
    public var keyUsage: KeyUsage?
    /// The extended key usage; `nil`: the profile's; empty: none written.
    public var extendedKeyUsage: [ASN1ObjectIdentifier]?
    /// Whether the subject is a CA; `nil`: the profile's.
    public var isCertificateAuthority: Bool?
    /// The path length of a CA; `nil`: the profile's (0 for an intermediate, none for a root).
    public var pathLength: Int?
    /// Name constraints' permitted subtrees (``GeneralNameText/constraint(_:)``), CAs only.
    public var permittedSubtrees: [GeneralName] = []
    /// Name constraints' excluded subtrees, CAs only.
    public var excludedSubtrees: [GeneralName] = []
    /// Certificate policies, by OID (without qualifiers).
    public var policies: [ASN1ObjectIdentifier] = []
    /// Authority information access: OCSP responder URLs.
    public var ocspURLs: [String] = []
    /// Authority information access: URLs of the issuer's certificate.
    public var caIssuerURLs: [String] = []
    /// CRL distribution point URLs (one distribution point with each as a full name).
    public var crlURLs: [String] = []

    /// The most names, subtrees, policies or URLs of one kind a builder takes.
    public static let maximumEntries = 1024

    /// Options with nothing set.
    public init() {}

    /// Reads the key usage names `digitalSignature`, `keyCertSign`, … (any case), or the
    /// short forms `openssl x509 -addext` takes.
    ///
    /// - Throws: ``CertificateError`` `.invalidArgument` for an unknown name.
    public static func keyUsage(named names: [String]) throws -> KeyUsage {
        var usage: KeyUsage = []
        for name in names {
            let lowered = name.lowercased()
            guard let index = KeyUsage.bitNames.firstIndex(where: { $0.lowercased() == lowered }) else {
                throw CertificateError(.invalidArgument, "unknown key usage '\(name)' (use \(KeyUsage.bitNames.joined(separator: ", ")))")
            }
            usage.insert(KeyUsage(rawValue: 1 << UInt16(index)))
        }
        return usage
    }

    /// Reads an extended key usage purpose by name (`serverAuth`, `clientAuth`, `codeSigning`,
    /// `emailProtection`, `timeStamping`, `OCSPSigning`, …; any case) or dotted OID.
    ///
    /// - Throws: ``CertificateError`` `.invalidArgument` for an unknown name or a bad OID.
    public static func extendedKeyUsage(named name: String) throws -> ASN1ObjectIdentifier {
        if let purpose = ExtendedKeyUsage.purpose(named: name) { return purpose }
        if let first = name.utf8.first, (0x30...0x39).contains(first) {
            return try objectIdentifier(name, what: "extended key usage")
        }
        throw CertificateError(.invalidArgument, "unknown extended key usage '\(name)' (use serverAuth, clientAuth, codeSigning, emailProtection, timeStamping, OCSPSigning or a dotted OID)")
    }

    /// Reads a dotted OID (a policy, a purpose).
    ///
    /// - Throws: ``CertificateError`` `.invalidArgument` naming `what`.
    public static func objectIdentifier(_ text: String, what: String) throws -> ASN1ObjectIdentifier {
        guard text.utf8.count <= 256, let oid = ASN1ObjectIdentifier(dotted: text) else {
            throw CertificateError(.invalidArgument, "the \(what) '\(text)' is not a dotted OID (like 2.23.140.1.2.1)")
        }
        return oid
    }
}
