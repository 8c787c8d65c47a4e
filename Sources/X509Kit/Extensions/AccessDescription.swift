import ASN1Kit
import CofferErrors
import AsymmetricKeys

/// One entry of the authority information access extension (RFC 5280 §4.2.2.1).
///
/// ```
/// AuthorityInfoAccessSyntax ::= SEQUENCE SIZE (1..MAX) OF AccessDescription
/// AccessDescription ::= SEQUENCE {
///      accessMethod          OBJECT IDENTIFIER,      -- id-ad-ocsp, id-ad-caIssuers
///      accessLocation        GeneralName }
/// ```
public struct AccessDescription: Sendable, Hashable, CustomStringConvertible {
    /// How to reach the authority: `id-ad-ocsp` (1.3.6.1.5.5.7.48.1), `id-ad-caIssuers` (…48.2).
    public var method: ASN1ObjectIdentifier
    /// Where (usually a URI).
    public var location: GeneralName

    public init(method: ASN1ObjectIdentifier, location: GeneralName) {
        self.method = method
        self.location = location
    }

    static let ocsp: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.48.1"
    static let caIssuers: ASN1ObjectIdentifier = "1.3.6.1.5.5.7.48.2"

    /// `OCSP`, `CA Issuers` (as `openssl x509 -text` names them) or the dotted OID.
    public var methodName: String {
        switch method {
        case Self.ocsp: "OCSP"
        case Self.caIssuers: "CA Issuers"
        default: method.dotted
        }
    }

    /// `OCSP - URI:http://ocsp.example.com/`, as `openssl x509 -text` prints it.
    public var description: String { "\(methodName) - \(location)" }

    /// Reads an `AuthorityInfoAccessSyntax`; at most `limit` entries.
    static func readAll(from reader: inout DERReader, limit: Int) throws -> [AccessDescription] {
        try reader.readSequence { sequence in
            var entries: [AccessDescription] = []
            while !sequence.isAtEnd {
                guard entries.count < limit else {
                    throw KeyError(.malformed, "more than \(limit) access descriptions (at offset \(sequence.offset))", offset: sequence.offset)
                }
                entries.append(try sequence.readSequence { description in
                    AccessDescription(method: try description.readObjectIdentifier(), location: try GeneralName.read(from: &description))
                })
            }
            guard !entries.isEmpty else { throw KeyError(.malformed, "no access descriptions (SIZE (1..MAX))", offset: 0) }
            return entries
        }
    }
}
