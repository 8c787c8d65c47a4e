import ASN1Kit
import AsymmetricKeys

/// The issuingDistributionPoint CRL extension (RFC 5280 §5.2.5): which certificates a CRL covers.
///
/// ```
/// IssuingDistributionPoint ::= SEQUENCE {
///      distributionPoint          [0] DistributionPointName OPTIONAL,
///      onlyContainsUserCerts      [1] BOOLEAN DEFAULT FALSE,
///      onlyContainsCACerts        [2] BOOLEAN DEFAULT FALSE,
///      onlySomeReasons            [3] ReasonFlags OPTIONAL,
///      indirectCRL                [4] BOOLEAN DEFAULT FALSE,
///      onlyContainsAttributeCerts [5] BOOLEAN DEFAULT FALSE }
/// DistributionPointName ::= CHOICE { fullName [0] GeneralNames, nameRelativeToCRLIssuer [1] RDN }
/// ```
public struct IssuingDistributionPoint: Sendable, Hashable {
    /// The distribution point's full name, when given as GeneralNames.
    public var fullName: [GeneralName]
    /// Whether the point is named relative to the CRL issuer (`nameRelativeToCRLIssuer`).
    public var hasRelativeName: Bool
    /// The RDN of `nameRelativeToCRLIssuer`, appended to the CRL issuer's name.
    public var relativeName: [DistinguishedName.Attribute]?
    public var onlyContainsUserCerts: Bool
    public var onlyContainsCACerts: Bool
    /// The ReasonFlags bits (bit 0 = unused, 1 = keyCompromise, …) when only some reasons are
    /// covered.
    public var onlySomeReasons: [UInt8]?
    public var indirectCRL: Bool
    public var onlyContainsAttributeCerts: Bool

    /// An IDP.
    public init(fullName: [GeneralName] = [], hasRelativeName: Bool = false, onlyContainsUserCerts: Bool = false,
                onlyContainsCACerts: Bool = false, onlySomeReasons: [UInt8]? = nil, indirectCRL: Bool = false,
                onlyContainsAttributeCerts: Bool = false) {
        self.fullName = fullName
        self.hasRelativeName = hasRelativeName
        self.onlyContainsUserCerts = onlyContainsUserCerts
        self.onlyContainsCACerts = onlyContainsCACerts
        self.onlySomeReasons = onlySomeReasons
        self.indirectCRL = indirectCRL
        self.onlyContainsAttributeCerts = onlyContainsAttributeCerts
    }

    /// The distribution point's names, a relative name completed with `crlIssuer`; empty when
    /// the extension names no point.
    func names(crlIssuer: DistinguishedName) -> [GeneralName] {
        if let relativeName { return [.directoryName(crlIssuer.appending(relativeName))] }
        return fullName
    }

    /// The most names of a full name.
    static let maximumNames = 64

    /// Reads the extension's value at the cursor.
    static func read(from reader: inout DERReader) throws -> IssuingDistributionPoint {
        let start = reader.offset
        return try reader.readSequence { sequence in
            var point = IssuingDistributionPoint()
            if try sequence.peekTag() == .context(0, constructed: true) {
                try sequence.readConstructed(.context(0, constructed: true)) { name in
                    if try name.peekTag() == .context(0, constructed: true) {
                        try name.readConstructed(.context(0, constructed: true)) { names in
                            while !names.isAtEnd {
                                guard point.fullName.count < maximumNames else {
                                    throw CertificateError(.limitExceeded, "the issuingDistributionPoint at offset \(start) names more than \(maximumNames) distribution points", offset: names.offset)
                                }
                                point.fullName.append(try GeneralName.read(from: &names))
                            }
                        }
                    } else {
                        let relative = try name.readElement(.context(1, constructed: true))
                        point.relativeName = try DistinguishedName.relativeName(content: relative.content)
                        point.hasRelativeName = true
                    }
                }
            }
            func flag(_ number: UInt64) throws -> Bool {
                guard try sequence.peekTag() == .context(number, constructed: false) else { return false }
                let offset = sequence.offset
                let value = try sequence.readBoolean(tag: .context(number, constructed: false))
                guard value else {
                    throw CertificateError(.malformed, "the issuingDistributionPoint at offset \(offset) writes a FALSE flag, its DEFAULT, which DER omits", offset: offset)
                }
                return true
            }
            point.onlyContainsUserCerts = try flag(1)
            point.onlyContainsCACerts = try flag(2)
            if try sequence.peekTag() == .context(3, constructed: false) {
                point.onlySomeReasons = Array(try sequence.readBitString(tag: .context(3, constructed: false)).bytes)
            }
            point.indirectCRL = try flag(4)
            point.onlyContainsAttributeCerts = try flag(5)
            let scopes = [point.onlyContainsUserCerts, point.onlyContainsCACerts, point.onlyContainsAttributeCerts].filter { $0 }
            guard scopes.count <= 1 else {
                throw CertificateError(.malformed, "the issuingDistributionPoint at offset \(start) sets more than one of onlyContainsUserCerts, onlyContainsCACerts and onlyContainsAttributeCerts", offset: start)
            }
            return point
        }
    }
}
