import CofferErrors
import CryptoOpenSSL

/// An EC private key: the scalar d on a NIST curve and its public point Q = d·G.
///
/// The scalar is kept left-padded to the curve's ``ECCurve/coordinateSize`` in wiped storage.
/// The public point is the one the container stored, checked to lie on the curve; that it equals
/// d·G is what ``PrivateKey/consistencyProblems()`` verifies. A container without the point gets d·G computed.
public struct ECPrivateKey: Sendable {
    /// The curve.
    public let curve: ECCurve
    /// The scalar d, big-endian, ``ECCurve/coordinateSize`` bytes.
    public let scalar: SecureBytes
    /// The public key.
    public let publicKey: ECPublicKey
    /// The OpenSSL key, built on first use and shared by copies.
    let cache = OpenSSLKeyCache<OpenSSLCurveKey>()

    /// Creates a key from its scalar (big-endian, at most the coordinate size once leading zeros are
    /// dropped) and, optionally, its public point.
    ///
    /// - Throws: ``KeyError`` `.malformed` for a zero or oversized scalar, or a point that is
    ///   not on the curve.
    public init(curve: ECCurve, scalar: some Collection<UInt8>, publicPoint: (some Collection<UInt8>)?) throws {
        try self.init(curve: curve, scalar: scalar, publicKey: publicPoint.map { try ECPublicKey(curve: curve, point: $0) })
    }

    /// Creates a key from its scalar and an already checked public key (d·G is computed when it
    /// is `nil`).
    init(curve: ECCurve, scalar: some Collection<UInt8>, publicKey: ECPublicKey?) throws {
        let magnitude = scalar.drop(while: { $0 == 0 })
        guard !magnitude.isEmpty else {
            throw KeyError(.malformed, "the \(curve.rawValue) private key is zero")
        }
        guard magnitude.count <= curve.coordinateSize else {
            throw KeyError(.malformed, "the \(curve.rawValue) private key has \(magnitude.count) bytes; at most \(curve.coordinateSize) fit the curve")
        }
        var padded = [UInt8](repeating: 0, count: curve.coordinateSize - magnitude.count) + magnitude
        defer { SecureMemory.zero(&padded) }
        let secret = SecureBytes(padded)
        self.curve = curve
        self.scalar = secret
        if let publicKey {
            self.publicKey = publicKey
        } else {
            let point = try KeyError.fromOpenSSL("the \(curve.rawValue) private key", code: .malformed) {
                try ECPointArithmetic.publicPoint(privateScalar: secret, on: curve.keyType)
            }
            self.publicKey = ECPublicKey(curve: curve, validatedPoint: point)
        }
    }

    /// Generates a new key with OpenSSL.
    public static func generate(curve: ECCurve) throws -> ECPrivateKey {
        try KeyError.fromOpenSSL("generating a \(curve.rawValue) key") {
            let key = try OpenSSLCurveKey.generate(curve.keyType)
            return try ECPrivateKey(curve: curve, openSSLKey: key)
        }
    }

    /// The key of an OpenSSL `EVP_PKEY`.
    init(curve: ECCurve, openSSLKey key: OpenSSLCurveKey) throws {
        let scalar = try key.privateKeyBytes()
        let point = try key.publicKeyBytes()
        self.curve = curve
        self.scalar = scalar
        self.publicKey = ECPublicKey(curve: curve, validatedPoint: point)
    }

    /// The key as OpenSSL's `EVP_PKEY`, built once per key value and then reused.
    public func openSSLKey() throws -> OpenSSLCurveKey {
        try cache.openSSLKey {
            try KeyError.fromOpenSSL("the \(curve.rawValue) private key") {
                try OpenSSLCurveKey(type: curve.keyType, privateKey: scalar, publicKey: publicKey.point)
            }
        }
    }
}
