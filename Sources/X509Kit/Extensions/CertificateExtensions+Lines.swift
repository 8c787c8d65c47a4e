import ASN1Kit
import AsymmetricKeys

extension CertificateExtensions {
    /// One extension as people read it: its name, whether it is critical, and its value in lines
    /// laid out as `openssl x509 -text` lays them out (nested lines indented by two spaces).
    public struct Shown: Sendable, Hashable {
        /// The extension's OID.
        public var oid: ASN1ObjectIdentifier
        /// `X509v3 Key Usage`, or the dotted OID of an unknown extension.
        public var name: String
        /// Whether it is marked critical.
        public var isCritical: Bool
        /// The length of its value (the `extnValue` content) in bytes.
        public var length: Int
        /// Whether Coffer decoded the value; the lines of an undecoded one give only its length.
        public var isDecoded: Bool
        /// The value, one line each.
        public var lines: [String]
    }

    /// Every extension in encoding order, with its value in lines.
    public var shown: [Shown] {
        all.map { ext in
            let lines = lines(of: ext)
            return Shown(oid: ext.oid, name: ext.name, isCritical: ext.isCritical, length: ext.value.count,
                         isDecoded: lines != nil, lines: lines ?? ["\(ext.value.count) bytes, not decoded"])
        }
    }

    /// The lines of a decoded extension, `nil` for one Coffer does not decode.
    private func lines(of ext: CertificateExtension) -> [String]? {
        switch ext.oid {
        case CertificateExtension.basicConstraints:
            return basicConstraints.map { ["CA:\($0.isCA ? "TRUE" : "FALSE")" + ($0.pathLength.map { ", pathlen:\($0)" } ?? "")] }
        case CertificateExtension.keyUsage:
            return keyUsage.map { [$0.names.joined(separator: ", ")] }
        case CertificateExtension.extendedKeyUsage:
            return extendedKeyUsageNames.map { [$0.joined(separator: ", ")] }
        case CertificateExtension.subjectAltName:
            return subjectAltNameStrings.map { [$0.joined(separator: ", ")] }
        case CertificateExtension.subjectKeyIdentifier:
            return subjectKeyIdentifier.map { [Self.colonHex($0)] }
        case CertificateExtension.authorityKeyIdentifier:
            return authorityKeyIdentifier.map { identifier in
                var lines: [String] = []
                if let keyID = identifier.keyIdentifier { lines.append("keyid:" + Self.colonHex(keyID)) }
                lines += identifier.issuer.map(\.description)
                if let serial = identifier.serialNumber { lines.append("serial:" + Self.colonHex(serial)) }
                return lines
            }
        case CertificateExtension.nameConstraints:
            return nameConstraints.map { constraints in
                var lines: [String] = []
                if !constraints.permitted.isEmpty { lines += ["Permitted:"] + constraints.permitted.map { "  " + Self.constraintText($0) } }
                if !constraints.excluded.isEmpty { lines += ["Excluded:"] + constraints.excluded.map { "  " + Self.constraintText($0) } }
                return lines
            }
        case CertificateExtension.certificatePolicies:
            return certificatePolicies.map { policies in
                policies.flatMap { policy -> [String] in
                    ["Policy: " + (policy.oid == "2.5.29.32.0" ? "X509v3 Any Policy" : policy.oid.dotted)] + policy.qualifiers.flatMap(Self.qualifierLines)
                }
            }
        case CertificateExtension.authorityInfoAccess:
            return authorityInfoAccess.map { $0.map(\.description) }
        case CertificateExtension.crlDistributionPoints:
            return crlDistributionPoints.map { points in
                points.flatMap { point -> [String] in
                    var lines: [String] = []
                    if !point.fullName.isEmpty { lines += ["Full Name:"] + point.fullName.map { "  \($0)" } }
                    if point.hasRelativeName { lines.append("Relative Name: (relative to the CRL issuer)") }
                    if !point.crlIssuer.isEmpty { lines += ["CRL Issuer:"] + point.crlIssuer.map { "  \($0)" } }
                    return lines
                }
            }
        default:
            return nil
        }
    }

    private static func qualifierLines(_ qualifier: CertificatePolicy.Qualifier) -> [String] {
        switch qualifier {
        case .cps(let uri):
            return ["  CPS: \(uri)"]
        case .userNotice(let organization, let numbers, let text):
            var lines = ["  User Notice:"]
            if let organization { lines.append("    Organization: \(organization)") }
            if !numbers.isEmpty { lines.append("    Numbers: " + numbers.map(String.init).joined(separator: ", ")) }
            if let text { lines.append("    Explicit Text: \(text)") }
            return lines
        case .other(let oid):
            return ["  Qualifier: \(oid.dotted)"]
        }
    }

    /// A name constraint as openssl prints it: an IP subtree as `IP:address/mask`.
    static func constraintText(_ name: GeneralName) -> String {
        guard case .ipAddress(let bytes) = name, bytes.count == 8 || bytes.count == 32 else { return name.description }
        let half = bytes.count / 2
        return "IP:" + GeneralName.ipText(Array(bytes[..<half])) + "/" + GeneralName.ipText(Array(bytes[half...]))
    }

    /// Uppercase hex pairs joined by colons (`17:36:D8`), as openssl prints key identifiers.
    static func colonHex(_ bytes: [UInt8]) -> String {
        bytes.map { Hex.encode([$0]).uppercased() }.joined(separator: ":")
    }
}
