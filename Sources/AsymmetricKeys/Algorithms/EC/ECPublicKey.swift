import CofferErrors
import CryptoOpenSSL

/// An EC public key: a point on a NIST curve, kept in the uncompressed SEC 1 form
/// (0x04 ‖ x ‖ y; SEC 1 v2 §2.3.3).
public struct ECPublicKey: Sendable, Hashable {
    /// The curve.
    public let curve: ECCurve
    /// The uncompressed point, 1 + 2 × ``ECCurve/coordinateSize`` bytes.
    public let point: [UInt8]
    /// The OpenSSL key, built on first use and shared by copies.
    let cache = OpenSSLKeyCache<OpenSSLCurveKey>()

    public static func == (lhs: ECPublicKey, rhs: ECPublicKey) -> Bool {
        lhs.curve == rhs.curve && lhs.point == rhs.point
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(curve)
        hasher.combine(point)
    }

    /// Creates a key from a SEC 1 point, uncompressed or compressed, after checking that it lies on
    /// the curve (with OpenSSL).
    ///
    /// - Throws: ``KeyError`` `.malformed` naming the problem: a wrong length or form byte, or a
    ///   point that is not on the curve.
    public init(curve: ECCurve, point: some Collection<UInt8>) throws {
        self.curve = curve
        do {
            self.point = try ECPointArithmetic.uncompressedPoint(Array(point), on: curve.keyType)
        } catch let error as CryptoError {
            throw KeyError(.malformed, "the \(curve.rawValue) public key is invalid: \(error.reason)", cause: error)
        }
    }

    /// A point already known to be valid and uncompressed.
    init(curve: ECCurve, validatedPoint: [UInt8]) {
        self.curve = curve
        self.point = validatedPoint
    }

    /// The x coordinate.
    public var x: ArraySlice<UInt8> { point[1...curve.coordinateSize] }
    /// The y coordinate.
    public var y: ArraySlice<UInt8> { point[(1 + curve.coordinateSize)...] }

    /// The key as OpenSSL's `EVP_PKEY`, built once per key value and then reused.
    public func openSSLKey() throws -> OpenSSLCurveKey {
        try cache.openSSLKey {
            try KeyError.fromOpenSSL("the \(curve.rawValue) public key") {
                try OpenSSLCurveKey(type: curve.keyType, publicKey: point)
            }
        }
    }
}
