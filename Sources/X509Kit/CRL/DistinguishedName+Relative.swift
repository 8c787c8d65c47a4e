import ASN1Kit
import AsymmetricKeys

/// `nameRelativeToCRLIssuer` (RFC 5280 §4.2.1.13, §5.2.5): a distribution point named by one RDN
/// that is appended to the CRL issuer's name.
extension DistinguishedName {
    /// Reads the `[1] IMPLICIT RelativeDistinguishedName` whose content octets are `content` (the
    /// SET OF AttributeTypeAndValue without its tag), through ``read(from:)`` so the same checks
    /// apply.
    static func relativeName(content: ArraySlice<UInt8>) throws -> [Attribute] {
        var writer = DERWriter(capacity: content.count + 8)
        writer.writeSequence { name in
            name.writeConstructed(.set) { set in set.writeEncoded(content) }
        }
        var reader = DERReader(writer.finish()[...])
        let name = try read(from: &reader)
        try reader.finish()
        return name.relativeNames[0]
    }

    /// This name with `relative` appended as its last RDN: the full name of a distribution point
    /// named relative to this issuer.
    func appending(_ relative: [Attribute]) -> DistinguishedName {
        DistinguishedName(relativeNames: relativeNames + [relative])
    }
}
