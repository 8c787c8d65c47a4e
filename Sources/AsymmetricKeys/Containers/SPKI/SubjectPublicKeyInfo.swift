import ASN1Kit
import CofferErrors

/// SubjectPublicKeyInfo, the `PUBLIC KEY` container (RFC 5280 §4.1, RFC 3279 §2.3.1).
///
/// ```
/// SubjectPublicKeyInfo ::= SEQUENCE {
///     algorithm         AlgorithmIdentifier,
///     subjectPublicKey  BIT STRING
/// }
/// ```
/// The BIT STRING holds the PKCS#1 `RSAPublicKey` DER of an RSA key (RFC 3279 §2.3.1), the SEC 1
/// point of an EC key (RFC 5480 §2.2), the raw key of Ed25519, Ed448, X25519 and X448 (RFC 8410 §4),
/// the `INTEGER y` of a DSA key, whose p, q and g are the AlgorithmIdentifier's parameters (RFC 3279 §2.3.2).
public enum SubjectPublicKeyInfo {
    /// Decodes a SubjectPublicKeyInfo DER holding a key of any algorithm Coffer handles.
    ///
    /// - Throws: ``KeyError`` `.malformed` (with the byte offset) for bad DER, trailing data, a bad
    ///   point or key length; `.unsupportedAlgorithm` naming the algorithm for DSA, other curves
    ///   and the like.
    public static func decode(_ der: ArraySlice<UInt8>) throws -> PublicKey {
        var reader = DERReader(der)
        do {
            let (algorithm, keyBits, bitsOffset) = try reader.readSequence { seq in
                let algorithm = try KeyAlgorithm.read(from: &seq)
                let offset = seq.offset
                return (algorithm, try seq.readBitString(), offset)
            }
            try reader.finish()
            guard algorithm.isSupported else {
                throw algorithm.unsupportedError(in: "SubjectPublicKeyInfo", offset: 0)
            }
            guard keyBits.unusedBits == 0 else {
                throw KeyError(.malformed, "SubjectPublicKeyInfo: the key BIT STRING at offset \(bitsOffset) has \(keyBits.unusedBits) unused bits", offset: bitsOffset)
            }
            return try publicKey(algorithm, keyBits.bytes, at: bitsOffset, what: "SubjectPublicKeyInfo", origin: der.startIndex)
        } catch let error as ASN1Error {
            throw KeyError.malformed("SubjectPublicKeyInfo", error)
        }
    }

    /// The key of `algorithm` whose public key bytes (BIT STRING content) are `bytes`; errors name
    /// `what` and the offset of the BIT STRING.
    static func publicKey(_ algorithm: KeyAlgorithm, _ bytes: ArraySlice<UInt8>, at offset: Int, what: String, origin: Int) throws -> PublicKey {
        do {
            switch algorithm {
            case .rsa:
                return .rsa(try decodeInner(bytes, origin: origin))
            case .rsaPSS(let restriction):
                var key = try decodeInner(bytes, origin: origin)
                key.pssRestriction = restriction
                return .rsa(key)
            case .ec(let curve):
                return .ec(try ECPublicKey(curve: curve, point: bytes))
            case .octet(let octet):
                return .octet(try OctetPublicKey(algorithm: octet, bytes: bytes))
            case .dsa(let p, let q, let g):
                // The BIT STRING holds DSAPublicKey ::= INTEGER (RFC 3279 §2.3.2).
                var reader = DERReader(bytes)
                let y = try reader.readUnsignedInteger()
                try reader.finish()
                return .dsa(try DSAPublicKey(p: p, q: q, g: g, y: y))
            case .other:
                throw algorithm.unsupportedError(in: what, offset: 0)
            }
        } catch var error as KeyError where error.code == .malformed && error.offset == nil {
            error.reason = "\(what): the public key in the BIT STRING at offset \(offset): \(error.reason)"
            error.offset = offset
            throw error
        } catch let error as ASN1Error {
            throw KeyError(.malformed, "\(what): the DSA public key INTEGER in the BIT STRING at offset \(offset) is malformed: \(error.reason)", offset: offset, cause: error)
        }
    }

    /// Decodes a SubjectPublicKeyInfo DER held in an array.
    public static func decode(_ der: [UInt8]) throws -> PublicKey {
        try decode(der[...])
    }

    /// The PKCS#1 RSAPublicKey inside the BIT STRING; offsets stay those of the outer input.
    private static func decodeInner(_ bytes: ArraySlice<UInt8>, origin: Int) throws -> RSAPublicKey {
        do {
            var reader = DERReader(bytes)
            let (n, e) = try reader.readSequence { seq in
                (try seq.readUnsignedInteger(), try seq.readUnsignedInteger())
            }
            try reader.finish()
            return try RSAPublicKey(modulus: n, publicExponent: e)
        } catch let error as ASN1Error {
            // Inner offsets count from the BIT STRING content; report them from the start of the SPKI.
            let offset = error.offset.map { $0 + bytes.startIndex - origin }
            throw KeyError(.malformed, "SubjectPublicKeyInfo: the RSAPublicKey inside, at offset \(bytes.startIndex - origin), is malformed: \(error.reason) (offsets counted from the BIT STRING content)",
                              offset: offset, cause: error)
        }
    }

    /// Encodes a key of any algorithm as SubjectPublicKeyInfo DER, byte-identical to
    /// `openssl pkey -pubout -outform DER` (EC points uncompressed).
    public static func encode(_ key: PublicKey) -> [UInt8] {
        let inner = key.rawBytes
        var writer = DERWriter(capacity: inner.count + 32)
        writer.writeSequence { seq in
            KeyAlgorithm.write(key, to: &seq)
            seq.writeBitString(ASN1BitString(bytes: inner))
        }
        return writer.finish()
    }
}

extension SubjectPublicKeyInfo {
    /// Reads the SubjectPublicKeyInfo embedded at `reader`'s position (in a certificate or a
    /// certification request) and decodes its key. `inputStart` is the index of the enclosing
    /// input's first byte: a key error names the SPKI's offset and reports offsets in the input.
    ///
    /// - Returns: the key and the SPKI's DER, a slice of the input.
    package static func readEmbedded(from reader: inout DERReader, inputStart: Int) throws -> (key: PublicKey, der: ArraySlice<UInt8>) {
        let before = reader.remaining
        _ = try reader.readElement(.sequence)
        let der = before[before.startIndex..<reader.remaining.startIndex]
        do {
            return (try decode(der), der)
        } catch let error as KeyError {
            let start = der.startIndex - inputStart
            throw error.nested(at: start, "the SubjectPublicKeyInfo at offset \(start)")
        }
    }
}
