/// The elliptic-curve key types OpenSSL holds for Coffer: ECDSA/ECDH keys on a named curve
/// (``ECCurve``, the one list of those curves), and the RFC 7748 / RFC 8032 keys (Ed25519, Ed448,
/// X25519, X448).
package enum CurveKeyType: Sendable, Hashable {
    case ec(ECCurve)
    case ed25519
    case ed448
    case x25519
    case x448

    /// The name in messages: the curve's (`P-256`, …) or `ED25519`, `ED448`, `X25519`, `X448`.
    package var name: String {
        switch self {
        case .ec(let curve): curve.rawValue
        case .ed25519: "ED25519"
        case .ed448: "ED448"
        case .x25519: "X25519"
        case .x448: "X448"
        }
    }

    /// The curve of an EC key, `nil` for the others.
    package var curve: ECCurve? {
        if case .ec(let curve) = self { return curve }
        return nil
    }

    /// Whether this is a Weierstrass (EC) key on a named prime curve.
    package var isEC: Bool { curve != nil }

    /// Whether this key signs (ECDSA, EdDSA) rather than only agreeing on secrets (X25519, X448).
    package var canSign: Bool { self != .x25519 && self != .x448 }

    /// Whether this key agrees on shared secrets (ECDH on the EC curves, X25519, X448).
    package var canDerive: Bool { isEC || self == .x25519 || self == .x448 }

    /// The length in bytes of a private key: the scalar of an EC key (the field size), or the raw
    /// key of the others (32, 57, 32, 56).
    package var privateKeyLength: Int {
        switch self {
        case .ec(let curve): curve.coordinateSize
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
        case .ec(let curve): curve.bits
        case .ed25519, .x25519: 256
        case .ed448: 456
        case .x448: 448
        }
    }

    /// The OpenSSL key type name (`EVP_PKEY_CTX_new_from_name`).
    var openSSLName: String { isEC ? "EC" : name }

    /// The OpenSSL group name of an EC curve.
    var groupName: String? { curve?.groupName }
}
