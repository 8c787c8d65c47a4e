import CofferErrors
import CryptoOpenSSL
import Synchronization

/// An Ed25519, Ed448, X25519 or X448 private key: its raw bytes (the EdDSA seed, or the X25519/X448
/// scalar), in wiped storage.
///
/// Without a stored public key, the public key is derived from the private one with OpenSSL the
/// first time it is needed and then kept (deriving is a scalar multiplication; reading a key is not
/// slowed by it). A container that also stores the public key (OpenSSH, PKCS#8 v2) keeps it as
/// ``storedPublicKey``; ``PrivateKey/consistencyProblems()`` compares it with the derived one.
public struct OctetPrivateKey: Sendable {
    /// The algorithm.
    public let algorithm: OctetKeyAlgorithm
    /// The raw private key, ``OctetKeyAlgorithm/keyLength`` bytes.
    public let bytes: SecureBytes
    /// The public key the container stored beside the private key, if it stored one.
    public let storedPublicKey: OctetPublicKey?
    private let storage: Storage

    /// The OpenSSL key and the derived public key, built once and shared by copies.
    final class Storage: Sendable {
        let state = Mutex<(OpenSSLCurveKey?, OctetPublicKey?)>((nil, nil))
    }

    /// Creates a key from its raw bytes.
    ///
    /// - Throws: ``KeyError`` `.malformed` for a wrong length or a stored public key of another
    ///   algorithm or length.
    public init(algorithm: OctetKeyAlgorithm, bytes: some Collection<UInt8>, storedPublicKey: OctetPublicKey? = nil) throws {
        guard bytes.count == algorithm.keyLength else {
            throw KeyError(.malformed, "an \(algorithm.displayName) private key has \(algorithm.keyLength) bytes, this one \(bytes.count)")
        }
        if let storedPublicKey, storedPublicKey.algorithm != algorithm {
            throw KeyError(.malformed, "the public key stored with the \(algorithm.displayName) private key is \(storedPublicKey.algorithm.displayName)")
        }
        var copy = Array(bytes)
        defer { SecureMemory.zero(&copy) }
        self.algorithm = algorithm
        self.bytes = SecureBytes(copy)
        self.storedPublicKey = storedPublicKey
        self.storage = Storage()
    }

    /// Generates a new key with OpenSSL.
    public static func generate(_ algorithm: OctetKeyAlgorithm) throws -> OctetPrivateKey {
        try KeyError.fromOpenSSL("generating an \(algorithm.displayName) key") {
            let key = try OpenSSLCurveKey.generate(algorithm.keyType)
            let raw = try key.privateKeyBytes()
            return try raw.withUnsafeBytes { try OctetPrivateKey(algorithm: algorithm, bytes: $0) }
        }
    }

    /// The key as OpenSSL's `EVP_PKEY`, built once per key value and then reused.
    public func openSSLKey() throws -> OpenSSLCurveKey {
        try storage.state.withLock { state in
            if let key = state.0 { return key }
            let key = try KeyError.fromOpenSSL("the \(algorithm.displayName) private key") {
                try OpenSSLCurveKey(type: algorithm.keyType, privateKey: bytes, publicKey: nil)
            }
            state.0 = key
            return key
        }
    }

    /// The public key derived from the private key (RFC 8032 §5.1.5, RFC 7748 §6).
    public func derivedPublicKey() throws -> OctetPublicKey {
        if let cached = storage.state.withLock({ $0.1 }) { return cached }
        let key = try openSSLKey()
        let raw = try KeyError.fromOpenSSL("deriving the \(algorithm.displayName) public key") { try key.publicKeyBytes() }
        let derived = try OctetPublicKey(algorithm: algorithm, bytes: raw)
        storage.state.withLock { $0.1 = derived }
        return derived
    }

    /// The public key: the one the container stored beside the private key, as `ssh-keygen`
    /// shows it, or else the derived one. That the two agree is what ``PrivateKey/consistencyProblems()`` verifies.
    public func publicKey() throws -> OctetPublicKey {
        try storedPublicKey ?? derivedPublicKey()
    }
}
