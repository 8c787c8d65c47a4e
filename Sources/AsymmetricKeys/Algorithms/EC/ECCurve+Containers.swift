import ASN1Kit
import CofferErrors
import CryptoOpenSSL
@_exported import enum CryptoOpenSSL.ECCurve

/// What the key containers name the curves by. The curves themselves, and their facts (name, OID,
/// size, digest), are CryptoOpenSSL's one list, re-exported here as ``ECCurve``.
///
/// Every curve is read and written in the DER containers (SubjectPublicKeyInfo, PKCS#8, SEC 1,
/// legacy PEM). JWK names P-256, P-384, P-521 and secp256k1 (RFC 8812); SSH names only the NIST
/// curves (RFC 5656): the writers of those containers refuse the others with `.cannotConvert`.
extension ECCurve {
    /// The named-curve OID of `ECParameters` (RFC 5480 §2.1.1.1, RFC 5639 §4.1).
    public var oid: ASN1ObjectIdentifier { Self.oids[self]! }

    /// ``oidDotted`` of every curve, parsed once.
    private static let oids: [ECCurve: ASN1ObjectIdentifier] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0, ASN1ObjectIdentifier(stringLiteral: $0.oidDotted)) })

    /// The curve of a named-curve OID, or `nil` for any other.
    public init?(oid: ASN1ObjectIdentifier) {
        guard let curve = Self.allCases.first(where: { $0.oid == oid }) else { return nil }
        self = curve
    }

    /// The curve for a name as users write it: `P-256`, `p256`, `prime256v1`, `secp256r1`,
    /// `nistp256` (and likewise for 384 and 521), `secp256k1`, `brainpoolP256r1` (and 384, 512),
    /// case-insensitive.
    public init?(name: String) {
        let lower = name.lowercased()
        for curve in Self.allCases {
            if curve.rawValue.lowercased() == lower {
                self = curve
                return
            }
            guard curve.isNIST else { continue }
            let bits = String(curve.bits)
            let names = ["p-\(bits)", "p\(bits)", "secp\(bits)r1", "nistp\(bits)"] + (curve == .p256 ? ["prime256v1"] : [])
            if names.contains(lower) {
                self = curve
                return
            }
        }
        return nil
    }

    /// The curve a JWK `crv` names (RFC 7518 §6.2.1.1, RFC 8812 §3.1), or `nil`.
    public init?(jwkName: String) {
        guard let curve = Self.allCases.first(where: { $0.jwkName == jwkName }) else { return nil }
        self = curve
    }

    /// The JWK `crv` name (`P-256`, …, `secp256k1`), or `nil` for the brainpool curves, which
    /// the IANA JOSE registry does not list.
    public var jwkName: String? {
        switch self {
        case .p256, .p384, .p521, .secp256k1: rawValue
        case .brainpoolP256r1, .brainpoolP384r1, .brainpoolP512r1: nil
        }
    }

    /// The JWS algorithm of ECDSA on this curve (ES256, ES384, ES512, ES256K), or `nil`.
    public var jwsAlgorithm: String? {
        switch self {
        case .p256: "ES256"
        case .p384: "ES384"
        case .p521: "ES512"
        case .secp256k1: "ES256K"
        case .brainpoolP256r1, .brainpoolP384r1, .brainpoolP512r1: nil
        }
    }

    /// The curve's identifier in SSH (`nistp256`; RFC 5656 §10.1), or `nil` for the curves SSH
    /// has no key type for.
    public var sshIdentifier: String? { isNIST ? "nistp\(bits)" : nil }

    /// The SSH key type (`ecdsa-sha2-nistp256`; RFC 5656 §6.2), or `nil` for the curves SSH has
    /// no key type for.
    public var sshKeyType: String? { sshIdentifier.map { "ecdsa-sha2-" + $0 } }

    /// The SSH key type, or ``KeyError`` `.cannotConvert` for a curve SSH has no key type for.
    public func requireSSHKeyType() throws -> String {
        guard let type = sshKeyType else {
            throw KeyError(.cannotConvert, "SSH has no key type for EC keys on \(rawValue) (RFC 5656 names only nistp256, nistp384 and nistp521)")
        }
        return type
    }

    /// The OpenSSL key type.
    package var keyType: CurveKeyType { .ec(self) }
}
