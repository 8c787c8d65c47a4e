import ASN1Kit
import AsymmetricKeys

/// One entry of a CRL's revokedCertificates (RFC 5280 §5.1.2.6, §5.3).
public struct RevokedCertificate: Sendable, Hashable {
    /// The revoked certificate's serial number: the INTEGER's content octets, as
    /// ``Certificate/serialNumber`` holds them.
    public var serialNumber: [UInt8]
    /// When it was revoked.
    public var revocationDate: ASN1Time
    /// The reasonCode entry extension (2.5.29.21), if present.
    public var reason: RevocationReason?
    /// The invalidityDate entry extension (2.5.29.24): when the key is known or suspected to have
    /// been compromised.
    public var invalidityDate: ASN1Time?
    /// Every entry extension.
    public var extensions: [CertificateExtension]
    /// The issuer of the revoked certificate in an indirect CRL: the names of this entry's
    /// certificateIssuer extension (2.5.29.29), or those of the last entry before it that had one
    /// (RFC 5280 §5.3.3 carries them forward); `nil` before any: the CRL's issuer.
    public var certificateIssuer: [GeneralName]?

    /// An entry.
    public init(serialNumber: [UInt8], revocationDate: ASN1Time, reason: RevocationReason? = nil,
                invalidityDate: ASN1Time? = nil, extensions: [CertificateExtension] = []) {
        self.serialNumber = serialNumber
        self.revocationDate = revocationDate
        self.reason = reason
        self.invalidityDate = invalidityDate
        self.extensions = extensions
    }

    /// The serial number in lowercase hex, as ``Certificate/serial`` writes it.
    public var serial: String {
        let magnitude = serialNumber.count > 1 && serialNumber.first == 0 ? serialNumber.dropFirst() : serialNumber[...]
        return Hex.encode(magnitude)
    }

    /// Critical entry extensions this parser does not know; a CRL with one cannot be used
    /// (RFC 5280 §5.3).
    public var unknownCriticalExtensions: [CertificateExtension] {
        extensions.filter { $0.isCritical && !CertificateExtension.knownEntryExtensions.contains($0.oid) }
    }

    /// The entry extensions other than reasonCode, invalidityDate and certificateIssuer (which
    /// the entry's fields hold), by name (or dotted OID) with their length and criticality.
    public var otherExtensions: [CertificateExtensions.Shown] {
        extensions.filter { !CertificateExtension.knownEntryExtensions.contains($0.oid) }.map { ext in
            CertificateExtensions.Shown(oid: ext.oid, name: CertificateRevocationList.name(of: ext), isCritical: ext.isCritical,
                                        length: ext.value.count, isDecoded: false, lines: ["\(ext.value.count) bytes, not decoded"])
        }
    }

    /// Whether the entry writes its own certificateIssuer extension (rather than carrying one forward).
    public var writesCertificateIssuer: Bool {
        extensions.contains { $0.oid == CertificateExtension.certificateIssuer }
    }

    /// The most names a certificateIssuer extension may hold.
    static let maximumIssuerNames = 16

    /// Reads one entry at the cursor; `previousIssuer` is the certificate issuer carried forward
    /// from the entries before it.
    static func read(_ reader: inout DERReader, crlVersion: Int, previousIssuer: [GeneralName]? = nil) throws -> RevokedCertificate {
        let entryOffset = reader.offset
        return try reader.readSequence { item in
            let serial = Array(try item.readElement(.integer).integerBytes())
            let date = try CRLTime.read(&item, field: "revocationDate")
            var entry = RevokedCertificate(serialNumber: serial, revocationDate: date)
            entry.certificateIssuer = previousIssuer
            if !item.isAtEnd {
                guard crlVersion == 2 else {
                    throw CertificateError(.malformed, "entry extensions at offset \(item.offset) in a v1 CRL", offset: item.offset)
                }
                entry.extensions = try CertificateExtension.readList(&item, what: "CRL entry at offset \(entryOffset)")
                for ext in entry.extensions {
                    var value = DERReader(ext.value)
                    switch ext.oid {
                    case CertificateExtension.reasonCode:
                        let code = try value.readInteger(as: Int.self, tag: .enumerated)
                        guard let reason = RevocationReason(rawValue: code) else {
                            throw CertificateError(.malformed, "the reasonCode at offset \(ext.offset) is \(code), which RFC 5280 does not define", offset: ext.offset)
                        }
                        entry.reason = reason
                    case CertificateExtension.invalidityDate:
                        let offset = value.offset
                        let time = try value.readTime()
                        guard time.kind == .generalizedTime, time.fraction.isEmpty else {
                            throw CertificateError(.malformed, "the invalidityDate at offset \(ext.offset + offset) is not a GeneralizedTime without fractions", offset: ext.offset)
                        }
                        entry.invalidityDate = time
                    case CertificateExtension.certificateIssuer:
                        var names: [GeneralName] = []
                        try value.readSequence { list in
                            while !list.isAtEnd {
                                guard names.count < maximumIssuerNames else {
                                    throw CertificateError(.limitExceeded, "the certificateIssuer at offset \(ext.offset) has more than \(maximumIssuerNames) names", offset: ext.offset)
                                }
                                names.append(try GeneralName.read(from: &list))
                            }
                        }
                        guard !names.isEmpty else {
                            throw CertificateError(.malformed, "the certificateIssuer at offset \(ext.offset) is empty", offset: ext.offset)
                        }
                        entry.certificateIssuer = names
                    default:
                        continue
                    }
                    do { try value.finish() } catch {
                        throw CertificateError(.malformed, "the \(ext.name) entry extension at offset \(ext.offset) has bytes after its value", offset: ext.offset)
                    }
                }
            }
            return entry
        }
    }
}
