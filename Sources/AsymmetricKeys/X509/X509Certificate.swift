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
/// Every call reads the certificate with the one certificate reader, ``CertificateInfo``; the
/// signature is not verified here (``CertificateInfo/isSigned(by:)`` does that).
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
    /// - Throws: as ``parse(_:)``.
    public static func subjectPublicKeyInfo(in der: ArraySlice<UInt8>) throws -> ArraySlice<UInt8> {
        try parse(der).subjectPublicKeyInfo
    }

    /// The public key of a certificate DER, of any algorithm Coffer handles.
    ///
    /// - Throws: as ``parse(_:)``.
    public static func publicKey(in der: ArraySlice<UInt8>) throws -> PublicKey {
        try parse(der).publicKey
    }
}
