internal import COpenSSL

/// The elliptic-curve key types OpenSSL holds for Coffer: ECDSA/ECDH keys on the NIST prime
/// curves, secp256k1 (SEC 2) and the brainpool curves (RFC 5639), and the RFC 7748 / RFC 8032 keys
/// (Ed25519, Ed448, X25519, X448).
package enum CurveKeyType: String, Sendable, Hashable, CaseIterable {
    case p256 = "P-256"
    case p384 = "P-384"
    case p521 = "P-521"
    case secp256k1 = "secp256k1"
    case brainpoolP256r1 = "brainpoolP256r1"
    case brainpoolP384r1 = "brainpoolP384r1"
    case brainpoolP512r1 = "brainpoolP512r1"
    case ed25519 = "ED25519"
    case ed448 = "ED448"
    case x25519 = "X25519"
    case x448 = "X448"

    /// Whether this is a Weierstrass (EC) key on a named prime curve.
    package var isEC: Bool {
        switch self {
        case .p256, .p384, .p521, .secp256k1, .brainpoolP256r1, .brainpoolP384r1, .brainpoolP512r1: true
        default: false
        }
    }

    /// Whether this key signs (ECDSA, EdDSA) rather than only agreeing on secrets (X25519, X448).
    package var canSign: Bool { self != .x25519 && self != .x448 }

    /// Whether this key agrees on shared secrets (ECDH on the EC curves, X25519, X448).
    package var canDerive: Bool { isEC || self == .x25519 || self == .x448 }

    /// The length in bytes of a private key: the scalar of an EC key (the field size), or the raw
    /// key of the others (32, 57, 32, 56).
    package var privateKeyLength: Int {
        switch self {
        case .p256, .secp256k1, .brainpoolP256r1: 32
        case .p384, .brainpoolP384r1: 48
        case .p521: 66
        case .brainpoolP512r1: 64
        case .ed25519, .x25519: 32
        case .ed448: 57
        case .x448: 56
        }
    }

    /// The length in bytes of a public key: the uncompressed point (0x04 ‖ x ‖ y) of an EC key, or
    /// the raw key of the others.
    package var publicKeyLength: Int {
        isEC ? 1 + 2 * privateKeyLength : privateKeyLength
    }

    /// The key size in bits, as `ssh-keygen -l` and `openssl pkey -text` print it.
    package var bits: Int {
        switch self {
        case .p256, .secp256k1, .brainpoolP256r1: 256
        case .p384, .brainpoolP384r1: 384
        case .p521: 521
        case .brainpoolP512r1: 512
        case .ed25519, .x25519: 256
        case .ed448: 456
        case .x448: 448
        }
    }

    /// The OpenSSL key type name (`EVP_PKEY_CTX_new_from_name`).
    var openSSLName: String { isEC ? "EC" : rawValue }

    /// The OpenSSL group name of an EC curve.
    var groupName: String? {
        switch self {
        case .p256: "prime256v1"
        case .p384: "secp384r1"
        case .p521: "secp521r1"
        case .secp256k1: "secp256k1"
        case .brainpoolP256r1: "brainpoolP256r1"
        case .brainpoolP384r1: "brainpoolP384r1"
        case .brainpoolP512r1: "brainpoolP512r1"
        default: nil
        }
    }

    /// The `NID` of an EC curve, for the `EC_GROUP` point arithmetic.
    var curveNID: Int32 {
        switch self {
        case .p256: NID_X9_62_prime256v1
        case .p384: NID_secp384r1
        case .p521: NID_secp521r1
        case .secp256k1: NID_secp256k1
        case .brainpoolP256r1: NID_brainpoolP256r1
        case .brainpoolP384r1: NID_brainpoolP384r1
        case .brainpoolP512r1: NID_brainpoolP512r1
        default: 0
        }
    }
}
