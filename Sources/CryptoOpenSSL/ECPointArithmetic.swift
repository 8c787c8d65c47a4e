internal import COpenSSL

/// Point arithmetic on the named EC curves (``ECCurve``) through OpenSSL's `EC_GROUP`/`EC_POINT` (not deprecated
/// in OpenSSL 3): decoding and checking points, and d·G.
package enum ECPointArithmetic {
    /// The uncompressed form (0x04 ‖ x ‖ y) of a SEC 1 point given compressed (0x02/0x03 ‖ x) or
    /// uncompressed, after checking that it lies on the curve and is not the point at infinity.
    ///
    /// - Throws: ``CryptoError`` `.invalidArgument` naming what is wrong (length, form byte, not on
    ///   the curve).
    package static func uncompressedPoint(_ point: [UInt8], on type: CurveKeyType) throws -> [UInt8] {
        let operation = "EC_POINT_oct2point"
        let size = type.privateKeyLength
        guard type.isEC else { throw CryptoError.invalidArgument(operation, "\(type.name) is not an EC curve") }
        switch point.first {
        case 0x04 where point.count == 1 + 2 * size, 0x02 where point.count == 1 + size, 0x03 where point.count == 1 + size:
            break
        case 0x04, 0x02, 0x03:
            throw CryptoError.invalidArgument(operation, "a \(type.name) point of form 0x\(String(point[0], radix: 16)) has \(point[0] == 4 ? 1 + 2 * size : 1 + size) bytes, got \(point.count)")
        case nil:
            throw CryptoError.invalidArgument(operation, "the point is empty")
        case let form?:
            throw CryptoError.invalidArgument(operation, "the point's first byte 0x\(String(form, radix: 16)) is not 0x04 (uncompressed), 0x02 or 0x03 (compressed)")
        }
        return try withGroup(type) { group, context in
            guard let decoded = EC_POINT_new(group) else { throw CryptoError.openSSL("EC_POINT_new", "out of memory") }
            defer { EC_POINT_free(decoded) }
            let status = point.withUnsafeBufferPointer { EC_POINT_oct2point(group, decoded, $0.baseAddress, $0.count, context) }
            guard status == 1, EC_POINT_is_on_curve(group, decoded, context) == 1 else {
                OpenSSLErrorQueue.clear()
                throw CryptoError.invalidArgument(operation, "the point is not on \(type.name)")
            }
            guard EC_POINT_is_at_infinity(group, decoded) == 0 else {
                throw CryptoError.invalidArgument(operation, "the point is the point at infinity")
            }
            return try encode(decoded, group: group, context: context, length: 1 + 2 * size)
        }
    }

    /// d·G, uncompressed.
    ///
    /// - Throws: ``CryptoError`` `.invalidArgument` when d is zero or not below the group order.
    package static func publicPoint(privateScalar: SecureBytes, on type: CurveKeyType) throws -> [UInt8] {
        guard type.isEC else { throw CryptoError.invalidArgument("EC_POINT_mul", "\(type.name) is not an EC curve") }
        return try withGroup(type) { group, context in
            let scalar = privateScalar.withUnsafeBytes { BigNumber(bigEndian: $0) }
            guard !scalar.isZero, let order = EC_GROUP_get0_order(group), BN_cmp(scalar.storage.pointer, order) < 0 else {
                throw CryptoError.invalidArgument("EC_POINT_mul", "the private scalar is not between 1 and the order of \(type.name) minus 1")
            }
            guard let product = EC_POINT_new(group) else { throw CryptoError.openSSL("EC_POINT_new", "out of memory") }
            defer { EC_POINT_free(product) }
            guard EC_POINT_mul(group, product, scalar.storage.pointer, nil, nil, context) == 1 else {
                throw CryptoError.openSSL("EC_POINT_mul", "cannot compute d·G")
            }
            return try encode(product, group: group, context: context, length: 1 + 2 * type.privateKeyLength)
        }
    }

    /// Whether the scalar lies in 1 … n−1 for the curve's order n.
    package static func isValidScalar(_ privateScalar: SecureBytes, on type: CurveKeyType) throws -> Bool {
        try withGroup(type) { group, _ in
            let scalar = privateScalar.withUnsafeBytes { BigNumber(bigEndian: $0) }
            guard let order = EC_GROUP_get0_order(group) else { throw CryptoError.openSSL("EC_GROUP_get0_order") }
            return !scalar.isZero && BN_cmp(scalar.storage.pointer, order) < 0
        }
    }

    private static func encode(_ point: OpaquePointer, group: OpaquePointer, context: OpaquePointer, length: Int) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: length)
        let written = output.withUnsafeMutableBufferPointer {
            EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, $0.baseAddress, $0.count, context)
        }
        guard written == length else { throw CryptoError.openSSL("EC_POINT_point2oct", "cannot encode the point") }
        return output
    }

    private static func withGroup<Result>(_ type: CurveKeyType, _ body: (OpaquePointer, OpaquePointer) throws -> Result) throws -> Result {
        OpenSSLErrorQueue.clear()
        guard let group = Groups.shared.group(type) else {
            throw CryptoError.openSSL("EC_GROUP_new_by_curve_name", "\(type.name) is not available")
        }
        guard let context = BN_CTX_new() else { throw CryptoError.openSSL("BN_CTX_new", "out of memory") }
        defer { BN_CTX_free(context) }
        return try body(group, context)
    }

    /// The `EC_GROUP` of each curve, made once (`EC_GROUP_new_by_curve_name` costs tens of
    /// microseconds) and kept for the life of the process.
    ///
    /// `@unchecked Sendable` is safe: the groups are created in `init` and only passed as
    /// `const EC_GROUP *` afterwards, which OpenSSL allows from several threads at once.
    private final class Groups: @unchecked Sendable {
        static let shared = Groups()
        private let groups: [ECCurve: OpaquePointer]

        private init() {
            var groups: [ECCurve: OpaquePointer] = [:]
            for curve in ECCurve.allCases {
                groups[curve] = EC_GROUP_new_by_curve_name(curve.nid)
            }
            self.groups = groups
        }

        func group(_ type: CurveKeyType) -> OpaquePointer? { type.curve.flatMap { groups[$0] } }
    }
}
