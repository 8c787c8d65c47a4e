import ASN1Kit
import AsymmetricKeys

/// A CRL's extensions and entries as people read them, laid out as `openssl crl -text` lays them
/// out: what `keytool inspect` prints.
extension CertificateRevocationList {
    /// The names `openssl crl -text` gives the CRL and CRL entry extensions.
    static let extensionNames: [ASN1ObjectIdentifier: String] = [
        CertificateExtension.crlNumber: "X509v3 CRL Number",
        CertificateExtension.reasonCode: "X509v3 CRL Reason Code",
        CertificateExtension.invalidityDate: "Invalidity Date",
        CertificateExtension.deltaCRLIndicator: "X509v3 Delta CRL Indicator",
        CertificateExtension.issuingDistributionPoint: "X509v3 Issuing Distribution Point",
        CertificateExtension.certificateIssuer: "X509v3 Certificate Issuer",
    ]

    /// The name of a CRL or entry extension: openssl's, or the dotted OID.
    static func name(of ext: CertificateExtension) -> String {
        extensionNames[ext.oid] ?? ext.name
    }

    /// Every CRL extension in encoding order, with its value in lines; one Coffer does not
    /// decode gives its length.
    public var shownExtensions: [CertificateExtensions.Shown] {
        extensions.map { ext in
            let lines = lines(of: ext)
            return CertificateExtensions.Shown(oid: ext.oid, name: Self.name(of: ext), isCritical: ext.isCritical,
                                               length: ext.value.count, isDecoded: lines != nil,
                                               lines: lines ?? ["\(ext.value.count) bytes, not decoded"])
        }
    }

    /// The CRL number or base CRL number: decimal up to 64 bits, else `0x` and hex.
    public static func numberText(_ octets: [UInt8]) -> String {
        let magnitude = octets.drop { $0 == 0 }
        guard magnitude.count <= 8 else { return "0x" + Hex.encode(magnitude) }
        return String(magnitude.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }

    /// The ReasonFlags names set in BIT STRING octets (bit 1 keyCompromise … bit 8 aACompromise).
    public static func reasonFlagNames(_ octets: [UInt8]) -> [String] {
        let mask = RevocationChecker.mask(octets)
        return (1...8).filter { mask & (1 << $0) != 0 }.map { RevocationChecker.reasonNames[$0] }
    }

    /// The lines of a decoded CRL extension, `nil` for one Coffer does not decode.
    private func lines(of ext: CertificateExtension) -> [String]? {
        switch ext.oid {
        case CertificateExtension.crlNumber:
            return crlNumber.map { [Self.numberText($0)] }
        case CertificateExtension.deltaCRLIndicator:
            return deltaCRLIndicator.map { ["base CRL number \(Self.numberText($0))"] }
        case CertificateExtension.authorityKeyIdentifier:
            return authorityKeyIdentifier.map { identifier in
                var lines: [String] = []
                if let keyID = identifier.keyIdentifier { lines.append("keyid:" + CertificateExtensions.colonHex(keyID)) }
                lines += identifier.issuer.map(\.description)
                if let serial = identifier.serialNumber { lines.append("serial:" + CertificateExtensions.colonHex(serial)) }
                return lines
            }
        case CertificateExtension.issuingDistributionPoint:
            return issuingDistributionPoint.map { point in
                var lines: [String] = []
                if !point.fullName.isEmpty { lines += ["Full Name:"] + point.fullName.map { "  \($0)" } }
                if let relative = point.relativeName {
                    lines.append("Relative Name: " + DistinguishedName(relativeNames: [relative]).rfc4514String
                                 + " (full name " + issuer.appending(relative).rfc4514String + ")")
                }
                if point.onlyContainsUserCerts { lines.append("Only User Certificates") }
                if point.onlyContainsCACerts { lines.append("Only CA Certificates") }
                if point.onlyContainsAttributeCerts { lines.append("Only Attribute Certificates") }
                if let reasons = point.onlySomeReasons {
                    lines.append("Only Some Reasons: " + Self.reasonFlagNames(reasons).joined(separator: ", "))
                }
                if point.indirectCRL { lines.append("Indirect CRL") }
                return lines
            }
        case CertificateExtension.freshestCRL:
            var reader = DERReader(ext.value)
            guard let points = try? DistributionPoint.readAll(from: &reader, limit: 64) else { return nil }
            return points.flatMap { point -> [String] in
                var lines: [String] = []
                if !point.fullName.isEmpty { lines += ["Full Name:"] + point.fullName.map { "  \($0)" } }
                if let relative = point.relativeName { lines.append("Relative Name: " + DistinguishedName(relativeNames: [relative]).rfc4514String) }
                if !point.crlIssuer.isEmpty { lines += ["CRL Issuer:"] + point.crlIssuer.map { "  \($0)" } }
                return lines
            }
        default:
            return nil
        }
    }
}
