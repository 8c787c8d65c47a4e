import ASN1Kit
import CofferErrors

/// PKCS#7 certificate bundles (`.p7b`, `.p7c`; RFC 2315 §9, RFC 5652 §5): a "degenerate"
/// SignedData that carries certificates (and perhaps CRLs) and no signature, as
/// `openssl crl2pkcs7 -nocrl -certfile chain.pem` writes it, in DER or PEM (`-----BEGIN PKCS7-----`).
///
/// ```
/// ContentInfo ::= SEQUENCE { contentType OID signedData, content [0] EXPLICIT SignedData }
/// SignedData ::= SEQUENCE {
///     version INTEGER, digestAlgorithms SET OF AlgorithmIdentifier,
///     encapContentInfo SEQUENCE { OID, [0] EXPLICIT ANY OPTIONAL },
///     certificates [0] IMPLICIT SET OF Certificate OPTIONAL,
///     crls [1] IMPLICIT SET OF CertificateList OPTIONAL,
///     signerInfos SET OF SignerInfo }
/// ```
///
/// Only the certificates are read; signerInfos, when there are any, are not verified. OpenSSL
/// writes the certificates in the order given (not sorted as a DER SET OF), so their order is
/// not checked. Files other tools write in BER (indefinite lengths) are read leniently.
public enum PKCS7CertificateBundle {
    /// The most certificates read from one bundle.
    public static let maximumCertificates = 4096

    /// One certificate of the bundle: its DER and where it starts in the input.
    public struct Certificate: Sendable {
        public var der: [UInt8]
        public var offset: Int
    }

    /// The certificates of a bundle, in file order, and how many CRLs it carries.
    public struct Contents: Sendable {
        public var certificates: [Certificate]
        public var crlCount: Int
        /// Whether the SignedData was read as BER (indefinite lengths and the like), not DER.
        public var isBER = false
    }

    /// The warning on every certificate of a bundle read as BER.
    public static let berWarning = "the PKCS#7 SignedData is BER, not DER (read leniently)"

    /// Reads the certificates of a PKCS#7 SignedData; the certificates themselves are not parsed.
    ///
    /// - Throws: ``KeyError`` `.malformed` with the byte offset, `.unrecognizedFormat` for a
    ///   ContentInfo of another type.
    public static func decode(_ der: ArraySlice<UInt8>) throws -> Contents {
        do {
            return try read(der, options: .der)
        } catch let strict as KeyError where strict.code == .malformed {
            // Windows and Java write BER; read it leniently rather than not at all.
            do {
                var contents = try read(der, options: .lenientBER)
                contents.isBER = true
                return contents
            } catch {
                throw strict
            }
        }
    }

    private static func read(_ der: ArraySlice<UInt8>, options: ASN1ParsingOptions) throws -> Contents {
        var reader = DERReader(der, options: options)
        do {
            let contents = try reader.readSequence { info -> Contents in
                let typeOffset = info.offset
                let type = try info.readObjectIdentifier()
                guard type == .cmsSignedData else {
                    throw KeyError(.unrecognizedFormat, "PKCS#7: content type \(type) at offset \(typeOffset) is not signedData", offset: typeOffset)
                }
                return try info.readExplicit(0) { explicit in
                    try explicit.readSequence { signed -> Contents in
                        _ = try signed.readInteger(as: Int.self)
                        _ = try signed.readElement(.set)
                        _ = try signed.readElement(.sequence)
                        var certificates: [Certificate] = []
                        var crlCount = 0
                        if let set = try signed.readOptionalElement(.context(0, constructed: true)) {
                            var list = try signed.reader(for: set)
                            while !list.isAtEnd {
                                guard certificates.count < maximumCertificates else {
                                    throw KeyError(.malformed, "PKCS#7: more than \(maximumCertificates) certificates", offset: list.offset)
                                }
                                let element = try list.readElement()
                                let start = element.offset
                                let bytes = der[der.startIndex + start..<der.startIndex + start + element.encodedLength]
                                certificates.append(Certificate(der: Array(bytes), offset: start))
                            }
                        }
                        if let set = try signed.readOptionalElement(.context(1, constructed: true)) {
                            var list = try signed.reader(for: set)
                            while !list.isAtEnd {
                                _ = try list.readElement()
                                crlCount += 1
                            }
                        }
                        _ = try signed.readElement(.set)
                        return Contents(certificates: certificates, crlCount: crlCount)
                    }
                }
            }
            try reader.finish()
            return contents
        } catch let error as ASN1Error {
            throw KeyError.malformed("PKCS#7", error)
        }
    }
}
