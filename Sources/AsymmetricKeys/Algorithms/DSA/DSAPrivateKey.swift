import CofferErrors
import CryptoOpenSSL

/// A DSA private key: the public key and the private value x, 0 < x < q. Read only (see
/// ``DSAPublicKey``): Coffer shows, fingerprints, matches and checks it and writes its public key,
/// but does not sign with it or write it.
public struct DSAPrivateKey: Sendable {
    /// The public key (p, q, g, y).
    public let publicKey: DSAPublicKey
    /// The private value x, big-endian, without leading zeros, in wiped storage.
    public let x: SecureBytes

    /// Creates a key from its public key and x.
    ///
    /// - Throws: ``KeyError`` `.malformed` when x is not between 1 and q − 1.
    public init(publicKey: DSAPublicKey, x: some Collection<UInt8>) throws {
        var magnitude = Array(x.drop(while: { $0 == 0 }))
        defer { SecureMemory.zero(&magnitude) }
        guard !magnitude.isEmpty else { throw KeyError(.malformed, "the DSA private value x is zero") }
        guard magnitude.count <= publicKey.q.count, BigNumber(bigEndian: magnitude) < BigNumber(bigEndian: publicKey.q) else {
            throw KeyError(.malformed, "the DSA private value x is not below q")
        }
        self.publicKey = publicKey
        self.x = SecureBytes(magnitude)
    }

    /// Creates a key from the domain parameters and x, computing y = g^x mod p (PKCS#8 stores no y).
    ///
    /// - Throws: ``KeyError`` `.malformed` for numbers out of range (see ``DSAPublicKey``).
    public init(p: some Collection<UInt8>, q: some Collection<UInt8>, g: some Collection<UInt8>, x: some Collection<UInt8>) throws {
        let bigP = BigNumber(bigEndian: Array(p))
        // y is only computed once p, q and g have passed the checks (with y = g as a stand-in).
        let domain = try DSAPublicKey(p: p, q: q, g: g, y: g)
        var secret = Array(x)
        defer { SecureMemory.zero(&secret) }
        let y = BigNumber(bigEndian: domain.g).modPow(BigNumber(bigEndian: secret), modulus: bigP)
        try self.init(publicKey: DSAPublicKey(p: domain.p, q: domain.q, g: domain.g, y: y.bigEndianBytes), x: secret)
    }

    /// Whether y = g^x mod p: the stored public value belongs to x.
    public var publicValueMatches: Bool {
        let computed = BigNumber(bigEndian: publicKey.g).modPow(BigNumber(bigEndian: x), modulus: BigNumber(bigEndian: publicKey.p))
        return computed == BigNumber(bigEndian: publicKey.y)
    }

    /// The error for what DSA keys cannot do (sign, be written).
    package static func readOnly(_ operation: String) -> KeyError {
        var error = KeyError(.unsupportedAlgorithm,
                             "DSA keys are read-only: obsolete since OpenSSH 7.0 and no longer approved for signatures by FIPS 186-5, Coffer does not \(operation) with them; inspect, fingerprint, match, public-key conversions and signature verification work")
        error.algorithm = "dsa"
        return error
    }
}
