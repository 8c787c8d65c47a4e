internal import COpenSSL

/// The named curves Coffer's EC keys use: NIST P-256, P-384 and P-521 (FIPS 186-4 §D.1.2),
/// secp256k1 (SEC 2 §2.4.1) and brainpoolP256r1, brainpoolP384r1, brainpoolP512r1 (RFC 5639).
///
/// The one list of these curves and their facts: name, named-curve OID, field size, digest, and
/// OpenSSL's group name and NID. `AsymmetricKeys` re-exports this type and adds what the key
/// containers name the curves (the OID as an `ASN1ObjectIdentifier`, JWK `crv`, SSH key types).
public enum ECCurve: String, Sendable, Hashable, CaseIterable {
    case p256 = "P-256"
    case p384 = "P-384"
    case p521 = "P-521"
    case secp256k1 = "secp256k1"
    case brainpoolP256r1 = "brainpoolP256r1"
    case brainpoolP384r1 = "brainpoolP384r1"
    case brainpoolP512r1 = "brainpoolP512r1"

    /// The named-curve OID of `ECParameters` in dotted form (RFC 5480 §2.1.1.1, RFC 5639 §4.1).
    public var oidDotted: String {
        switch self {
        case .p256: "1.2.840.10045.3.1.7"
        case .p384: "1.3.132.0.34"
        case .p521: "1.3.132.0.35"
        case .secp256k1: "1.3.132.0.10"
        case .brainpoolP256r1: "1.3.36.3.3.2.8.1.1.7"
        case .brainpoolP384r1: "1.3.36.3.3.2.8.1.1.11"
        case .brainpoolP512r1: "1.3.36.3.3.2.8.1.1.13"
        }
    }

    /// Whether this is one of the NIST curves P-256, P-384, P-521.
    public var isNIST: Bool { self == .p256 || self == .p384 || self == .p521 }

    /// The size of the field in bits (the key size `ssh-keygen -l` and `openssl pkey -text` print).
    public var bits: Int {
        switch self {
        case .p256, .secp256k1, .brainpoolP256r1: 256
        case .p384, .brainpoolP384r1: 384
        case .p521: 521
        case .brainpoolP512r1: 512
        }
    }

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

    /// The OpenSSL group name (`EVP_PKEY_CTX_set_group_name`, `OSSL_PKEY_PARAM_GROUP_NAME`).
    var groupName: String {
        switch self {
        case .p256: "prime256v1"
        case .p384: "secp384r1"
        case .p521: "secp521r1"
        case .secp256k1, .brainpoolP256r1, .brainpoolP384r1, .brainpoolP512r1: rawValue
        }
    }

    /// The OpenSSL `NID`, for the `EC_GROUP` point arithmetic.
    var nid: Int32 {
        switch self {
        case .p256: NID_X9_62_prime256v1
        case .p384: NID_secp384r1
        case .p521: NID_secp521r1
        case .secp256k1: NID_secp256k1
        case .brainpoolP256r1: NID_brainpoolP256r1
        case .brainpoolP384r1: NID_brainpoolP384r1
        case .brainpoolP512r1: NID_brainpoolP512r1
        }
    }
}
