import ASN1Kit
import CofferErrors
import AsymmetricKeys

/// The authority key identifier extension (RFC 5280 §4.2.1.1).
///
/// ```
/// AuthorityKeyIdentifier ::= SEQUENCE {
///      keyIdentifier             [0] KeyIdentifier           OPTIONAL,
///      authorityCertIssuer       [1] GeneralNames            OPTIONAL,
///      authorityCertSerialNumber [2] CertificateSerialNumber OPTIONAL }
/// ```
public struct AuthorityKeyIdentifier: Sendable, Hashable {
    /// The issuer's key identifier, when present.
    public var keyIdentifier: [UInt8]?
    /// The issuer's issuer names, when present.
    public var issuer: [GeneralName]
    /// The issuer certificate's serial number (the INTEGER's content octets), when present.
    public var serialNumber: [UInt8]?

    public init(keyIdentifier: [UInt8]?, issuer: [GeneralName] = [], serialNumber: [UInt8]? = nil) {
        self.keyIdentifier = keyIdentifier
        self.issuer = issuer
        self.serialNumber = serialNumber
    }

    /// Reads the extension's value; at most `limit` issuer names.
    package static func read(from reader: inout DERReader, limit: Int) throws -> AuthorityKeyIdentifier {
        try reader.readSequence { sequence in
            let keyID = try sequence.readOptionalElement(.context(0, constructed: false)).map { Array($0.content) }
            var issuer: [GeneralName] = []
            if let element = try sequence.readOptionalElement(.context(1, constructed: true)) {
                var names = try sequence.reader(for: element)
                while !names.isAtEnd {
                    guard issuer.count < limit else { throw KeyError(.malformed, "more than \(limit) issuer names (at offset \(names.offset))", offset: names.offset) }
                    issuer.append(try GeneralName.read(from: &names))
                }
            }
            let serial = try sequence.readOptionalElement(.context(2, constructed: false)).map { Array(try $0.integerBytes()) }
            return AuthorityKeyIdentifier(keyIdentifier: keyID, issuer: issuer, serialNumber: serial)
        }
    }
}
