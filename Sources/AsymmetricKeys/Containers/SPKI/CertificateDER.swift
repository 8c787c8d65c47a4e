import ASN1Kit

/// What a key container needs of an X.509 certificate it holds (a PKCS#12 certBag, a PKCS#7
/// bundle, a JWK `x5c`): the SubjectPublicKeyInfo and the key it certifies. Everything else in a
/// certificate is X509Kit's `Certificate`; containers hand out certificate DER and this.
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
/// The outline is read as DER (a truncated or trailing byte is an error with its offset); the
/// fields before the key are skipped unread, and the signature is not verified.
public enum CertificateDER {
    /// The SubjectPublicKeyInfo DER inside a certificate DER (a slice of the input).
    ///
    /// - Throws: ``KeyError`` `.malformed` with the byte offset.
    public static func subjectPublicKeyInfo(in der: ArraySlice<UInt8>) throws -> ArraySlice<UInt8> {
        var reader = DERReader(der)
        do {
            let spki = try reader.readSequence { certificate in
                let spki = try certificate.readSequence { tbs in
                    _ = try tbs.readOptionalElement(.context(0, constructed: true))
                    for _ in 0..<5 { _ = try tbs.readElement() }  // serial, signature, issuer, validity, subject
                    let element = try tbs.readElement(.sequence)
                    while !tbs.isAtEnd { _ = try tbs.readElement() }  // unique IDs, extensions
                    return element
                }
                _ = try certificate.readElement(.sequence)
                _ = try certificate.readElement(.bitString)
                return spki
            }
            try reader.finish()
            return der[(spki.content.startIndex - spki.headerLength)..<spki.content.endIndex]
        } catch let error as ASN1Error {
            throw KeyError.malformed("X.509 certificate", error)
        }
    }

    /// The public key of a certificate DER, of any algorithm Coffer handles.
    ///
    /// - Throws: as ``subjectPublicKeyInfo(in:)``, and `.unsupportedAlgorithm` for a key of
    ///   another algorithm.
    public static func publicKey(in der: ArraySlice<UInt8>) throws -> PublicKey {
        try SubjectPublicKeyInfo.decode(subjectPublicKeyInfo(in: der))
    }
}
