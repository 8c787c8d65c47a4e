import ASN1Kit
import CofferErrors
import CryptoOpenSSL

/// SEC 1 `ECPrivateKey`, the `EC PRIVATE KEY` container and the key inside a PKCS#8 EC key.
///
/// ```
/// ECPrivateKey ::= SEQUENCE {
///     version        INTEGER { ecPrivkeyVer1(1) },
///     privateKey     OCTET STRING,                       -- d, big-endian, the field's length
///     parameters [0] ECParameters {{ NamedCurve }} OPTIONAL,
///     publicKey  [1] BIT STRING OPTIONAL                 -- the SEC 1 point
/// }
/// ```
/// (RFC 5915 §3, SEC 1 v2 §C.4.) Standing alone the curve must be named in `parameters`; inside
/// PKCS#8 the outer AlgorithmIdentifier names it and `parameters`, when present, must agree.
public enum SEC1PrivateKey {
    /// The PEM label.
    public static let label = "EC PRIVATE KEY"

    /// Decodes an `ECPrivateKey` DER.
    ///
    /// - Parameter curve: The curve named by an enclosing container (PKCS#8), or `nil` when the
    ///   structure stands alone and must name its curve.
    /// - Throws: ``KeyError`` `.malformed` with the byte offset (bad DER, version, scalar, point
    ///   not on the curve, parameters that contradict `curve`), `.unsupportedAlgorithm` for a curve
    ///   other than P-256, P-384 and P-521 or for explicit curve parameters.
    public static func decode(_ der: ArraySlice<UInt8>, curve outerCurve: ECCurve? = nil) throws -> ECPrivateKey {
        var reader = DERReader(der)
        let parts: (scalar: ArraySlice<UInt8>, scalarOffset: Int, curve: ECCurve, point: ArraySlice<UInt8>?, pointOffset: Int)
        do {
            parts = try reader.readSequence { seq in
                let versionElement = try seq.readElement(.integer)
                let version: Int = try versionElement.integer()
                guard version == 1 else {
                    throw KeyError(.malformed, "EC private key version \(version) at offset \(versionElement.offset) is not 1 (ecPrivkeyVer1)",
                                   offset: versionElement.offset)
                }
                let scalarOffset = seq.offset
                let scalar = try seq.readOctetString()
                let parametersOffset = seq.offset
                let named = try seq.readOptionalExplicit(0) { params in
                    try namedCurve(&params, at: parametersOffset)
                }
                guard let curve = named ?? outerCurve else {
                    throw KeyError(.malformed, "EC private key names no curve: the [0] parameters are missing at offset \(parametersOffset)",
                                   offset: parametersOffset)
                }
                if let named, let outerCurve, named != outerCurve {
                    throw KeyError(.malformed, "EC private key parameters at offset \(parametersOffset) name \(named.rawValue) but the enclosing container says \(outerCurve.rawValue)",
                                   offset: parametersOffset)
                }
                let pointOffset = seq.offset
                let point = try seq.readOptionalExplicit(1) { inner -> ArraySlice<UInt8> in
                    let bits = try inner.readBitString()
                    guard bits.unusedBits == 0 else {
                        throw KeyError(.malformed, "EC public key BIT STRING at offset \(pointOffset) has \(bits.unusedBits) unused bits", offset: pointOffset)
                    }
                    return bits.bytes
                }
                if !seq.isAtEnd {
                    let offset = seq.offset
                    throw KeyError(.malformed, "EC private key has an unexpected element at offset \(offset)", offset: offset)
                }
                return (scalar, scalarOffset, curve, point, pointOffset)
            }
            try reader.finish()
        } catch let error as ASN1Error {
            throw KeyError.malformed("EC private key (SEC 1)", error)
        }
        do {
            return try ECPrivateKey(curve: parts.curve, scalar: parts.scalar, publicPoint: parts.point)
        } catch var error as KeyError {
            let offset = parts.point == nil ? parts.scalarOffset : parts.pointOffset
            error.reason = "EC private key at offset \(offset): \(error.reason)"
            error.offset = offset
            throw error
        }
    }

    /// Decodes an `ECPrivateKey` DER held in an array.
    public static func decode(_ der: [UInt8]) throws -> ECPrivateKey {
        try decode(der[...])
    }

    /// Encodes `key` as `ECPrivateKey` DER in wiped storage: with the named curve in [0] as
    /// `openssl ec` writes it when `includeParameters`, without it as OpenSSL writes the key
    /// inside PKCS#8; the public point in [1] either way.
    public static func encode(_ key: ECPrivateKey, includeParameters: Bool = true) -> SecureBytes {
        key.scalar.withUnsafeBytes { scalar in
            var writer = DERWriter(capacity: scalar.count + key.publicKey.point.count + 32)
            writer.writeSequence { seq in
                seq.writeInteger(1)
                seq.writeOctetString(scalar)
                if includeParameters {
                    seq.writeExplicit(0) { $0.writeObjectIdentifier(key.curve.oid) }
                }
                seq.writeExplicit(1) { $0.writeBitString(ASN1BitString(bytes: key.publicKey.point)) }
            }
            var der = writer.finish(wipingContentWith: SecureMemory.zero)
            defer { SecureMemory.zero(&der) }
            return SecureBytes(der)
        }
    }

    /// Reads `ECParameters` and returns the named curve, or throws for what Coffer does not read.
    static func namedCurve(_ params: inout DERReader, at offset: Int) throws -> ECCurve {
        guard try params.peekTag() == .objectIdentifier else {
            var error = KeyError(.unsupportedAlgorithm,
                                 "EC key at offset \(offset) has explicit curve parameters; Coffer reads named curves only (P-256, P-384, P-521)",
                                 offset: offset)
            error.algorithm = "ec"
            throw error
        }
        let oid = try params.readObjectIdentifier()
        guard let curve = ECCurve(oid: oid) else {
            var error = KeyError(.unsupportedAlgorithm,
                                 "EC key at offset \(offset) is on the curve \(KeyAlgorithm.curveName(oid)); Coffer handles P-256, P-384 and P-521",
                                 offset: offset)
            error.algorithm = "ec"
            throw error
        }
        return curve
    }
}
