import ASN1Kit
import AsymmetricKeys

/// The extensions of a CRL and of its entries (RFC 5280 §5.2, §5.3) are X.509 `Extension`s, read
/// into AsymmetricKeys' ``AsymmetricKeys/CertificateExtension``: the OIDs this module knows, and
/// the strict reader of an `Extensions` list.
extension CertificateExtension {
    static let crlNumberOID: ASN1ObjectIdentifier = "2.5.29.20"
    static let reasonCodeOID: ASN1ObjectIdentifier = "2.5.29.21"
    static let invalidityDateOID: ASN1ObjectIdentifier = "2.5.29.24"
    static let deltaCRLIndicatorOID: ASN1ObjectIdentifier = "2.5.29.27"
    static let issuingDistributionPointOID: ASN1ObjectIdentifier = "2.5.29.28"
    static let certificateIssuerOID: ASN1ObjectIdentifier = "2.5.29.29"
    static let authorityKeyIdentifierOID: ASN1ObjectIdentifier = "2.5.29.35"
    static let freshestCRLOID: ASN1ObjectIdentifier = "2.5.29.46"
    static let authorityInfoAccessOID: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.1.1"

    /// CRL extensions whose meaning this module applies or may ignore.
    static let knownCertificateExtensions: Set<ASN1ObjectIdentifier> = [
        crlNumberOID, deltaCRLIndicatorOID, issuingDistributionPointOID, authorityKeyIdentifierOID,
        freshestCRLOID, authorityInfoAccessOID,
    ]
    /// CRL entry extensions this module reads. certificateIssuer is read but its indirect CRLs
    /// are not used.
    static let knownEntryExtensions: Set<ASN1ObjectIdentifier> = [reasonCodeOID, invalidityDateOID, certificateIssuerOID]

    /// Reads `Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension` at the cursor: at most
    /// ``CertificateRevocationList/maximumExtensions``, no OID twice, DEFAULT FALSE never written.
    static func readList(_ reader: inout DERReader, what: String) throws -> [CertificateExtension] {
        let listOffset = reader.offset
        return try reader.readSequence { list in
            guard !list.isAtEnd else {
                throw CertificateError(.malformed, "the \(what) extensions at offset \(listOffset) are an empty SEQUENCE", offset: listOffset)
            }
            var result: [CertificateExtension] = []
            var seen: Set<ASN1ObjectIdentifier> = []
            while !list.isAtEnd {
                let offset = list.offset
                guard result.count < CertificateRevocationList.maximumExtensions else {
                    throw CertificateError(.limitExceeded, "the \(what) has more than \(CertificateRevocationList.maximumExtensions) extensions (at offset \(offset))", offset: offset)
                }
                let ext: CertificateExtension = try list.readSequence { item in
                    let oid = try item.readObjectIdentifier()
                    var critical = false
                    if try item.peekTag() == .boolean {
                        let booleanOffset = item.offset
                        critical = try item.readBoolean()
                        guard critical else {
                            throw CertificateError(.malformed, "the extension at offset \(offset) writes critical FALSE (offset \(booleanOffset)), its DEFAULT, which DER omits", offset: booleanOffset)
                        }
                    }
                    let value = try item.readOctetString()
                    return CertificateExtension(oid: oid, isCritical: critical, value: value, offset: offset)
                }
                guard seen.insert(ext.oid).inserted else {
                    throw CertificateError(.malformed, "the \(what) has the extension \(ext.name) twice (offset \(offset))", offset: offset)
                }
                result.append(ext)
            }
            return result
        }
    }
}
