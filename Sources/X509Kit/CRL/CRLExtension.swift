import ASN1Kit

/// One extension of a CRL or of a CRL entry (RFC 5280 §5.2, §5.3):
/// `Extension ::= SEQUENCE { extnID OID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }`.
public struct CRLExtension: Sendable, Hashable {
    /// The extension's OID.
    public var oid: ASN1ObjectIdentifier
    /// Whether it is marked critical.
    public var isCritical: Bool
    /// The DER inside extnValue.
    public var value: ArraySlice<UInt8>
    /// The offset of the Extension SEQUENCE in the CRL.
    public var offset: Int

    /// An extension.
    public init(oid: ASN1ObjectIdentifier, isCritical: Bool, value: ArraySlice<UInt8>, offset: Int) {
        self.oid = oid
        self.isCritical = isCritical
        self.value = value
        self.offset = offset
    }

    /// The OID's name, or its dotted form.
    public var name: String { oid.name ?? oid.dotted }

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
    static let knownCRLExtensions: Set<ASN1ObjectIdentifier> = [
        crlNumberOID, deltaCRLIndicatorOID, issuingDistributionPointOID, authorityKeyIdentifierOID,
        freshestCRLOID, authorityInfoAccessOID,
    ]
    /// CRL entry extensions this module reads. certificateIssuer is read but its indirect CRLs
    /// are not used.
    static let knownEntryExtensions: Set<ASN1ObjectIdentifier> = [reasonCodeOID, invalidityDateOID, certificateIssuerOID]

    /// Reads `Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension` at the cursor: at most
    /// ``CertificateRevocationList/maximumExtensions``, no OID twice, DEFAULT FALSE never written.
    static func readList(_ reader: inout DERReader, what: String) throws -> [CRLExtension] {
        let listOffset = reader.offset
        return try reader.readSequence { list in
            guard !list.isAtEnd else {
                throw CertificateError(.malformed, "the \(what) extensions at offset \(listOffset) are an empty SEQUENCE", offset: listOffset)
            }
            var result: [CRLExtension] = []
            var seen: Set<ASN1ObjectIdentifier> = []
            while !list.isAtEnd {
                let offset = list.offset
                guard result.count < CertificateRevocationList.maximumExtensions else {
                    throw CertificateError(.limitExceeded, "the \(what) has more than \(CertificateRevocationList.maximumExtensions) extensions (at offset \(offset))", offset: offset)
                }
                let ext: CRLExtension = try list.readSequence { item in
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
                    return CRLExtension(oid: oid, isCritical: critical, value: value, offset: offset)
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
