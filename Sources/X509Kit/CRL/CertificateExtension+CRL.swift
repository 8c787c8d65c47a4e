import ASN1Kit
import AsymmetricKeys

/// The extensions of a CRL and of its entries (RFC 5280 §5.2, §5.3) are X.509 `Extension`s, read
/// into ``CertificateExtension``: which of them this module applies, and the strict reader of an
/// `Extensions` list.
extension CertificateExtension {

    /// CRL extensions whose meaning this module applies or may ignore.
    static let knownCertificateExtensions: Set<ASN1ObjectIdentifier> = [
        crlNumber, deltaCRLIndicator, issuingDistributionPoint, authorityKeyIdentifier,
        freshestCRL, authorityInfoAccess,
    ]
    /// CRL entry extensions this module reads (certificateIssuer for indirect CRLs).
    static let knownEntryExtensions: Set<ASN1ObjectIdentifier> = [reasonCode, invalidityDate, certificateIssuer]

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
