import CofferErrors
import CryptoOpenSSL

/// An Ed25519, Ed448, X25519 or X448 public key: its raw bytes (RFC 8032 §5.1.5, RFC 7748 §5).
public struct OctetPublicKey: Sendable, Hashable {
    /// The algorithm.
    public let algorithm: OctetKeyAlgorithm
    /// The raw public key, ``OctetKeyAlgorithm/keyLength`` bytes.
    public let bytes: [UInt8]
    /// The OpenSSL key, built on first use and shared by copies.
    let cache = OpenSSLKeyCache<OpenSSLCurveKey>()

    public static func == (lhs: OctetPublicKey, rhs: OctetPublicKey) -> Bool {
        lhs.algorithm == rhs.algorithm && lhs.bytes == rhs.bytes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(algorithm)
        hasher.combine(bytes)
    }

    /// Creates a key from its raw bytes.
    ///
    /// - Throws: ``KeyError`` `.malformed` for a wrong length.
    public init(algorithm: OctetKeyAlgorithm, bytes: some Collection<UInt8>) throws {
        guard bytes.count == algorithm.keyLength else {
            throw KeyError(.malformed, "an \(algorithm.displayName) public key has \(algorithm.keyLength) bytes, this one \(bytes.count)")
        }
        self.algorithm = algorithm
        self.bytes = Array(bytes)
    }

    /// The key as OpenSSL's `EVP_PKEY`, built once per key value and then reused.
    public func openSSLKey() throws -> OpenSSLCurveKey {
        try cache.openSSLKey {
            try KeyError.fromOpenSSL("the \(algorithm.displayName) public key") {
                try OpenSSLCurveKey(type: algorithm.keyType, publicKey: bytes)
            }
        }
    }
}
