import ASN1Kit
import CryptoOpenSSL

/// The named curves Coffer's EC keys use: NIST P-256, P-384 and P-521 (FIPS 186-4 §D.1.2).
public enum ECCurve: String, Sendable, Hashable, CaseIterable {
    case p256 = "P-256"
    case p384 = "P-384"
    case p521 = "P-521"

    /// The named-curve OID of `ECParameters` (RFC 5480 §2.1.1.1).
    public var oid: ASN1ObjectIdentifier {
        switch self {
        case .p256: .prime256v1
        case .p384: .secp384r1
        case .p521: .secp521r1
        }
    }

    /// The curve of a named-curve OID, or `nil` for any other.
    public init?(oid: ASN1ObjectIdentifier) {
        guard let curve = Self.allCases.first(where: { $0.oid == oid }) else { return nil }
        self = curve
    }

    /// The curve for a name as users write it: `P-256`, `p256`, `prime256v1`, `secp256r1`,
    /// `nistp256` (and likewise for 384 and 521), case-insensitive.
    public init?(name: String) {
        let lower = name.lowercased()
        for curve in Self.allCases {
            let bits = String(curve.bits)
            let names = ["p-\(bits)", "p\(bits)", "secp\(bits)r1", "nistp\(bits)"] + (curve == .p256 ? ["prime256v1"] : [])
            if names.contains(lower) {
                self = curve
                return
            }
        }
        return nil
    }

    /// The curve's identifier in SSH (`nistp256`; RFC 5656 §10.1).
    public var sshIdentifier: String { "nistp\(bits)" }

    /// The SSH key type (`ecdsa-sha2-nistp256`; RFC 5656 §6.2).
    public var sshKeyType: String { "ecdsa-sha2-" + sshIdentifier }

    /// The size of the field in bits (the key size `ssh-keygen -l` prints).
    public var bits: Int {
        switch self {
        case .p256: 256
        case .p384: 384
        case .p521: 521
        }
    }

    /// The length of one coordinate and of the private scalar in bytes (32, 48, 66).
    public var coordinateSize: Int { (bits + 7) / 8 }

    /// The digest SSH pairs with the curve, and the one JWS names (ES256/ES384/ES512).
    public var digest: DigestAlgorithm {
        switch self {
        case .p256: .sha256
        case .p384: .sha384
        case .p521: .sha512
        }
    }

    /// The OpenSSL key type.
    package var keyType: CurveKeyType {
        switch self {
        case .p256: .p256
        case .p384: .p384
        case .p521: .p521
        }
    }
}
