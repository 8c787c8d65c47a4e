import ASN1Kit

/// The public key inside an X.509 certificate (RFC 5280 §4.1), read-only.
///
/// ```
/// Certificate ::= SEQUENCE {
///     tbsCertificate       TBSCertificate,
///     signatureAlgorithm   AlgorithmIdentifier,
///     signatureValue       BIT STRING }
/// TBSCertificate ::= SEQUENCE {
///     version         [0] EXPLICIT Version DEFAULT v1,
///     serialNumber         CertificateSerialNumber,    -- INTEGER
///     signature            AlgorithmIdentifier,
///     issuer               Name,
///     validity             Validity,
///     subject              Name,
///     subjectPublicKeyInfo SubjectPublicKeyInfo,
///     ... }                                            -- unique IDs, [3] extensions
/// ```
/// Only the structure up to the SubjectPublicKeyInfo is checked; the signature is not verified.
/// ``parse(_:)`` reads the whole certificate (``CertificateInfo``).
public enum X509Certificate {
    /// Parses a whole certificate DER: names, validity, extensions, fingerprint, key.
    ///
    /// - Throws: ``KeyError`` `.malformed` with the byte offset, `.unsupportedAlgorithm` for a
    ///   certified key Coffer does not handle.
    public static func parse(_ der: ArraySlice<UInt8>) throws -> CertificateInfo {
        try CertificateInfo(derEncoded: der)
    }

    /// The SubjectPublicKeyInfo DER inside a certificate DER (a slice of the input).
    ///
    /// - Throws: ``KeyError`` `.malformed` with the byte offset.
    public static func subjectPublicKeyInfo(in der: ArraySlice<UInt8>) throws -> ArraySlice<UInt8> {
        var reader = DERReader(der)
        do {
            let spki = try reader.readSequence { cert in
                let spki = try cert.readSequence { tbs in
                    _ = try tbs.readOptionalElement(.context(0, constructed: true))
                    _ = try tbs.readElement(.integer)        // serialNumber
                    _ = try tbs.readElement(.sequence)       // signature
                    _ = try tbs.readElement(.sequence)       // issuer
                    _ = try tbs.readElement(.sequence)       // validity
                    _ = try tbs.readElement(.sequence)       // subject
                    let start = tbs.remaining.startIndex
                    let element = try tbs.readElement(.sequence)
                    while !tbs.isAtEnd { _ = try tbs.readElement() }
                    return der[start..<(element.content.endIndex)]
                }
                _ = try cert.readElement(.sequence)          // signatureAlgorithm
                _ = try cert.readBitString()                 // signatureValue
                return spki
            }
            try reader.finish()
            return spki
        } catch let error as ASN1Error {
            throw KeyError.malformed("X.509 certificate", error)
        }
    }

    /// The public key of a certificate DER, of any algorithm Coffer handles.
    ///
    /// - Throws: ``KeyError`` `.malformed` with the byte offset, `.unsupportedAlgorithm` for a
    ///   certified key Coffer does not handle.
    public static func publicKey(in der: ArraySlice<UInt8>) throws -> PublicKey {
        let spki = try subjectPublicKeyInfo(in: der)
        do {
            return try SubjectPublicKeyInfo.decode(spki)
        } catch let error as KeyError {
            let start = spki.startIndex - der.startIndex
            throw error.nested(at: start, "X.509 certificate: the SubjectPublicKeyInfo at offset \(start)")
        }
    }
}
