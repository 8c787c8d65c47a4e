import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// The named curves Coffer's EC keys use: NIST P-256, P-384 and P-521 (FIPS 186-4 §D.1.2),
/// secp256k1 (SEC 2 §2.4.1) and brainpoolP256r1, brainpoolP384r1, brainpoolP512r1 (RFC 5639).
///
/// Every curve is read and written in the DER containers (SubjectPublicKeyInfo, PKCS#8, SEC 1,
/// legacy PEM). JWK names P-256, P-384, P-521 and secp256k1 (RFC 8812); SSH names only the NIST
/// curves (RFC 5656): the writers of those containers refuse the others with `.cannotConvert`.
public enum ECCurve: String, Sendable, Hashable, CaseIterable {
    case p256 = "P-256"
    case p384 = "P-384"
    case p521 = "P-521"
    case secp256k1 = "secp256k1"
    case brainpoolP256r1 = "brainpoolP256r1"
    case brainpoolP384r1 = "brainpoolP384r1"
    case brainpoolP512r1 = "brainpoolP512r1"

    /// The named-curve OID of `ECParameters` (RFC 5480 §2.1.1.1, RFC 5639 §4.1).
    public var oid: ASN1ObjectIdentifier {
        switch self {
        case .p256: .prime256v1
        case .p384: .secp384r1
        case .p521: .secp521r1
        case .secp256k1: .secp256k1
        case .brainpoolP256r1: .brainpoolP256r1
        case .brainpoolP384r1: .brainpoolP384r1
        case .brainpoolP512r1: .brainpoolP512r1
        }
    }

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

    /// Whether this is one of the NIST curves P-256, P-384, P-521.
    public var isNIST: Bool { self == .p256 || self == .p384 || self == .p521 }

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

    /// The size of the field in bits (the key size `ssh-keygen -l` and `openssl pkey -text` print).
    public var bits: Int { keyType.bits }

    /// The length of one coordinate and of the private scalar in bytes (32, 48, 66; 64 for
    /// brainpoolP512r1).
    public var coordinateSize: Int { (bits + 7) / 8 }

    /// The digest SSH pairs with the curve, and the one JWS names (ES256/ES384/ES512/ES256K);
    /// by size for the brainpool curves (RFC 5639 has no pairing; SHA-256/384/512 as for NIST).
    public var digest: DigestAlgorithm {
        switch self {
        case .p256, .secp256k1, .brainpoolP256r1: .sha256
        case .p384, .brainpoolP384r1: .sha384
        case .p521, .brainpoolP512r1: .sha512
        }
    }

    /// The OpenSSL key type.
    package var keyType: CurveKeyType {
        switch self {
        case .p256: .p256
        case .p384: .p384
        case .p521: .p521
        case .secp256k1: .secp256k1
        case .brainpoolP256r1: .brainpoolP256r1
        case .brainpoolP384r1: .brainpoolP384r1
        case .brainpoolP512r1: .brainpoolP512r1
        }
    }
}
