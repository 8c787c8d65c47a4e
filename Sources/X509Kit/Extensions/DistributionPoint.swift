import ASN1Kit
import CofferErrors
import AsymmetricKeys

/// One entry of the CRL distribution points extension (RFC 5280 §4.2.1.13).
///
/// ```
/// CRLDistributionPoints ::= SEQUENCE SIZE (1..MAX) OF DistributionPoint
/// DistributionPoint ::= SEQUENCE {
///      distributionPoint       [0]     DistributionPointName OPTIONAL,
///      reasons                 [1]     ReasonFlags OPTIONAL,
///      cRLIssuer               [2]     GeneralNames OPTIONAL }
/// DistributionPointName ::= CHOICE {
///      fullName                [0]     GeneralNames,
///      nameRelativeToCRLIssuer [1]     RelativeDistinguishedName }
/// ```
public struct DistributionPoint: Sendable, Hashable {
    /// The names of the CRL (`fullName`), usually URIs; empty when absent.
    public var fullName: [GeneralName]
    /// Whether the point is named relative to the CRL issuer instead.
    public var hasRelativeName: Bool
    /// The RDN of `nameRelativeToCRLIssuer`, appended to the CRL issuer's name (the cRLIssuer's
    /// when given, else the certificate's issuer); `nil` when the point has no relative name.
    public var relativeName: [DistinguishedName.Attribute]?
    /// The ReasonFlags BIT STRING octets (bit 1 keyCompromise … bit 8 aACompromise) when the
    /// point serves only some reasons; `nil`: all reasons.
    public var reasons: [UInt8]?
    /// The CRL's issuer, when it is not the certificate's (`cRLIssuer`); empty when absent.
    public var crlIssuer: [GeneralName]

    public init(fullName: [GeneralName], hasRelativeName: Bool = false, crlIssuer: [GeneralName] = [],
                relativeName: [DistinguishedName.Attribute]? = nil, reasons: [UInt8]? = nil) {
        self.fullName = fullName
        self.hasRelativeName = hasRelativeName || relativeName != nil
        self.crlIssuer = crlIssuer
        self.relativeName = relativeName
        self.reasons = reasons
    }

    /// Reads a `CRLDistributionPoints`; at most `limit` points and names in all.
    static func readAll(from reader: inout DERReader, limit: Int) throws -> [DistributionPoint] {
        try reader.readSequence { sequence in
            var count = 0
            func names(_ reader: inout DERReader) throws -> [GeneralName] {
                var names: [GeneralName] = []
                while !reader.isAtEnd {
                    count += 1
                    guard count <= limit else { throw KeyError(.malformed, "more than \(limit) names (at offset \(reader.offset))", offset: reader.offset) }
                    names.append(try GeneralName.read(from: &reader))
                }
                return names
            }
            var points: [DistributionPoint] = []
            while !sequence.isAtEnd {
                count += 1
                guard count <= limit else {
                    throw KeyError(.malformed, "more than \(limit) distribution points (at offset \(sequence.offset))", offset: sequence.offset)
                }
                points.append(try sequence.readSequence { point in
                    var result = DistributionPoint(fullName: [])
                    if let element = try point.readOptionalElement(.context(0, constructed: true)) {
                        var name = try point.reader(for: element)
                        if let full = try name.readOptionalElement(.context(0, constructed: true)) {
                            var inner = try name.reader(for: full)
                            result.fullName = try names(&inner)
                        } else {
                            let relative = try name.readElement(.context(1, constructed: true))
                            result.relativeName = try DistinguishedName.relativeName(content: relative.content)
                            result.hasRelativeName = true
                        }
                        try name.finish()
                    }
                    if try point.peekTag() == .context(1, constructed: false) {
                        result.reasons = Array(try point.readBitString(tag: .context(1, constructed: false)).bytes)
                    }
                    if let element = try point.readOptionalElement(.context(2, constructed: true)) {
                        var inner = try point.reader(for: element)
                        result.crlIssuer = try names(&inner)
                    }
                    return result
                })
            }
            guard !points.isEmpty else { throw KeyError(.malformed, "no distribution points (SIZE (1..MAX))", offset: 0) }
            return points
        }
    }
}
