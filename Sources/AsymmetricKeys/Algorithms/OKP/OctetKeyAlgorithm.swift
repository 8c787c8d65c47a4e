import ASN1Kit
import CryptoOpenSSL

/// The algorithms whose keys are plain octet strings (JWK's "OKP"): the EdDSA signature keys of
/// RFC 8032 and the key-agreement keys of RFC 7748, with their OIDs from RFC 8410.
public enum OctetKeyAlgorithm: String, Sendable, Hashable, CaseIterable {
    case ed25519
    case ed448
    case x25519
    case x448

    /// The algorithm's name as RFC 8410 and OpenSSL write it (`Ed25519`, `X448`, …).
    public var displayName: String {
        switch self {
        case .ed25519: "Ed25519"
        case .ed448: "Ed448"
        case .x25519: "X25519"
        case .x448: "X448"
        }
    }

    /// The OID of the AlgorithmIdentifier (parameters absent; RFC 8410 §3).
    public var oid: ASN1ObjectIdentifier {
        switch self {
        case .ed25519: .ed25519
        case .ed448: .ed448
        case .x25519: .x25519
        case .x448: .x448
        }
    }

    /// The algorithm of an OID, or `nil`.
    public init?(oid: ASN1ObjectIdentifier) {
        guard let algorithm = Self.allCases.first(where: { $0.oid == oid }) else { return nil }
        self = algorithm
    }

    /// The length of the public key and of the private key in bytes (32, 57, 32, 56).
    public var keyLength: Int { keyType.privateKeyLength }

    /// The key size in bits, as `openssl pkey -text` prints it and `ssh-keygen -l` for Ed25519.
    public var bits: Int { keyType.bits }

    /// Whether the key signs (Ed25519, Ed448) rather than agrees on secrets (X25519, X448).
    public var isSignature: Bool { self == .ed25519 || self == .ed448 }

    /// The SSH key type (`ssh-ed25519` of RFC 8709 and OpenSSH, `ssh-ed448` of RFC 8709); `nil`
    /// for the key-agreement algorithms, which SSH keys never hold.
    public var sshKeyType: String? {
        switch self {
        case .ed25519: "ssh-ed25519"
        case .ed448: "ssh-ed448"
        case .x25519, .x448: nil
        }
    }

    /// The OpenSSL key type.
    package var keyType: CurveKeyType {
        switch self {
        case .ed25519: .ed25519
        case .ed448: .ed448
        case .x25519: .x25519
        case .x448: .x448
        }
    }
}
