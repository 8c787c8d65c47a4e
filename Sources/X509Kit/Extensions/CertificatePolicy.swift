import ASN1Kit
import CofferErrors
import AsymmetricKeys

/// One policy of the certificate policies extension (RFC 5280 §4.2.1.4).
///
/// ```
/// PolicyInformation ::= SEQUENCE {
///      policyIdentifier   CertPolicyId,
///      policyQualifiers   SEQUENCE SIZE (1..MAX) OF PolicyQualifierInfo OPTIONAL }
/// PolicyQualifierInfo ::= SEQUENCE {
///      policyQualifierId  PolicyQualifierId,          -- id-qt-cps or id-qt-unotice
///      qualifier          ANY DEFINED BY policyQualifierId }
/// UserNotice ::= SEQUENCE {
///      noticeRef        NoticeReference OPTIONAL,
///      explicitText     DisplayText OPTIONAL }
/// NoticeReference ::= SEQUENCE {
///      organization     DisplayText,
///      noticeNumbers    SEQUENCE OF INTEGER }
/// ```
public struct CertificatePolicy: Sendable, Hashable {
    /// The policy's OID (`2.23.140.1.2.1`, or `anyPolicy` 2.5.29.32.0).
    public var oid: ASN1ObjectIdentifier
    /// Its qualifiers, in encoding order.
    public var qualifiers: [Qualifier]

    /// A policy qualifier.
    public enum Qualifier: Sendable, Hashable {
        /// `id-qt-cps`: the URI of the certification practice statement.
        case cps(String)
        /// `id-qt-unotice`: a notice for relying parties.
        case userNotice(organization: String?, noticeNumbers: [Int], explicitText: String?)
        /// Another qualifier, by OID.
        case other(ASN1ObjectIdentifier)
    }

    public init(oid: ASN1ObjectIdentifier, qualifiers: [Qualifier]) {
        self.oid = oid
        self.qualifiers = qualifiers
    }

    static let cpsQualifier: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.2.1"
    static let userNoticeQualifier: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.2.2"

    /// Reads a `certificatePolicies` value; at most `limit` policies and qualifiers in all.
    static func readAll(from reader: inout DERReader, limit: Int) throws -> [CertificatePolicy] {
        try reader.readSequence { sequence in
            var count = 0
            func counted(_ offset: Int) throws {
                count += 1
                guard count <= limit else { throw KeyError(.malformed, "more than \(limit) policies and qualifiers (at offset \(offset))", offset: offset) }
            }
            var policies: [CertificatePolicy] = []
            while !sequence.isAtEnd {
                try counted(sequence.offset)
                policies.append(try sequence.readSequence { information in
                    let oid = try information.readObjectIdentifier()
                    var qualifiers: [Qualifier] = []
                    if !information.isAtEnd {
                        try information.readSequence { list in
                            while !list.isAtEnd {
                                try counted(list.offset)
                                qualifiers.append(try list.readSequence { try readQualifier(&$0, limit: limit) })
                            }
                        }
                    }
                    return CertificatePolicy(oid: oid, qualifiers: qualifiers)
                })
            }
            guard !policies.isEmpty else { throw KeyError(.malformed, "no policies (SIZE (1..MAX))", offset: 0) }
            return policies
        }
    }

    private static func readQualifier(_ qualifier: inout DERReader, limit: Int) throws -> Qualifier {
        let id = try qualifier.readObjectIdentifier()
        switch id {
        case cpsQualifier:
            return .cps(try qualifier.readString(.ia5String))
        case userNoticeQualifier:
            guard !qualifier.isAtEnd else { return .userNotice(organization: nil, noticeNumbers: [], explicitText: nil) }
            return try qualifier.readSequence { notice in
                var organization: String?
                var numbers: [Int] = []
                if try notice.peekTag() == .sequence {
                    try notice.readSequence { reference in
                        organization = try displayText(&reference)
                        try reference.readSequence { list in
                            while !list.isAtEnd {
                                guard numbers.count < limit else {
                                    throw KeyError(.malformed, "more than \(limit) notice numbers (at offset \(list.offset))", offset: list.offset)
                                }
                                numbers.append(Int(try list.readInteger(as: Int32.self)))
                            }
                        }
                    }
                }
                let text = notice.isAtEnd ? nil : try displayText(&notice)
                return .userNotice(organization: organization, noticeNumbers: numbers, explicitText: text)
            }
        default:
            while !qualifier.isAtEnd { _ = try qualifier.readElement() }
            return .other(id)
        }
    }

    /// `DisplayText ::= CHOICE { ia5String, visibleString, bmpString, utf8String }`.
    private static func displayText(_ reader: inout DERReader) throws -> String {
        let element = try reader.readElement()
        guard [ASN1Tag.ia5String, .visibleString, .bmpString, .utf8String].contains(element.tag) else {
            throw ASN1Error(.unexpectedTag, "expected DisplayText at offset \(element.offset), found \(element.tag.name)", offset: element.offset)
        }
        return try element.string()
    }
}
