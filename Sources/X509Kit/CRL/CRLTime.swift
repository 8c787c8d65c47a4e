import ASN1Kit

/// The `Time` of RFC 5280 §5.1.2.4–5 in a CRL: UTCTime through 2049, GeneralizedTime from 2050,
/// without fractional seconds.
enum CRLTime {
    /// Reads a Time at the cursor and checks its form.
    static func read(_ reader: inout DERReader, field: String) throws -> ASN1Time {
        let offset = reader.offset
        let time = try reader.readTime()
        guard time.fraction.isEmpty else {
            throw CertificateError(.malformed, "the \(field) at offset \(offset) has fractional seconds, which RFC 5280 forbids", offset: offset)
        }
        if time.kind == .generalizedTime, time.year < 2050 {
            throw CertificateError(.malformed, "the \(field) at offset \(offset) is a GeneralizedTime before 2050, which RFC 5280 writes as UTCTime", offset: offset)
        }
        return time
    }
}
