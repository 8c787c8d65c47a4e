import ASN1Kit

/// SubjectPublicKeyInfo, the `PUBLIC KEY` container (RFC 5280 §4.1, RFC 3279 §2.3.1).
///
/// ```
/// SubjectPublicKeyInfo ::= SEQUENCE {
///     algorithm         AlgorithmIdentifier,   -- rsaEncryption, NULL
///     subjectPublicKey  BIT STRING             -- DER of PKCS#1 RSAPublicKey
/// }
/// ```
public enum SubjectPublicKeyInfo {
    /// Decodes a SubjectPublicKeyInfo DER holding an RSA key (`rsaEncryption` or `id-RSASSA-PSS`).
    ///
    /// - Throws: ``RSAKeyError`` `.malformed` (with the byte offset) for bad DER or trailing data,
    ///   `.unsupportedAlgorithm` naming the algorithm for EC, Ed25519, DSA and other keys.
    public static func decode(_ der: ArraySlice<UInt8>) throws -> RSAPublicKey {
        var reader = DERReader(der)
        do {
            let (algorithm, keyBits, bitsOffset) = try reader.readSequence { seq in
                let algorithm = try KeyAlgorithm.read(from: &seq)
                let offset = seq.offset
                return (algorithm, try seq.readBitString(), offset)
            }
            try reader.finish()
            guard algorithm.isRSA else {
                throw algorithm.unsupportedError(in: "SubjectPublicKeyInfo", offset: 0)
            }
            guard keyBits.unusedBits == 0 else {
                throw RSAKeyError(.malformed, "SubjectPublicKeyInfo: the key BIT STRING at offset \(bitsOffset) has \(keyBits.unusedBits) unused bits", offset: bitsOffset)
            }
            return try decodeInner(keyBits.bytes, origin: der.startIndex)
        } catch let error as ASN1Error {
            throw RSAKeyError.malformed("SubjectPublicKeyInfo", error)
        }
    }

    /// Decodes a SubjectPublicKeyInfo DER held in an array.
    public static func decode(_ der: [UInt8]) throws -> RSAPublicKey {
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
            throw RSAKeyError(.malformed, "SubjectPublicKeyInfo: the RSAPublicKey inside, at offset \(bytes.startIndex - origin), is malformed: \(error.reason) (offsets counted from the BIT STRING content)",
                              offset: offset, cause: error)
        }
    }

    /// Encodes `key` as SubjectPublicKeyInfo DER, byte-identical to `openssl pkey -pubout -outform DER`.
    public static func encode(_ key: RSAPublicKey) -> [UInt8] {
        let inner = key.pkcs1DER
        var writer = DERWriter(capacity: inner.count + 32)
        writer.writeSequence { seq in
            KeyAlgorithm.writeRSAEncryption(to: &seq)
            seq.writeBitString(ASN1BitString(bytes: inner))
        }
        return writer.finish()
    }
}

extension RSAPublicKey {
    /// Decodes a SubjectPublicKeyInfo DER; see ``SubjectPublicKeyInfo/decode(_:)-(ArraySlice<UInt8>)``.
    public init(spkiDER der: ArraySlice<UInt8>) throws {
        self = try SubjectPublicKeyInfo.decode(der)
    }

    /// The SubjectPublicKeyInfo DER of this key.
    public var spkiDER: [UInt8] { SubjectPublicKeyInfo.encode(self) }
}
