import ASN1Kit

/// Instants of a certificate's validity: read from text, written as RFC 5280 §4.1.2.5 says
/// (UTCTime for 1950 through 2049, GeneralizedTime before and after, always `Z`, no fractions).
///
/// Time is `Int64` seconds since 1970-01-01T00:00:00Z, without leap seconds.
public enum CertificateTime {
    /// The earliest instant written: 0001-01-01T00:00:00Z.
    public static let earliest: Int64 = -62_135_596_800
    /// The latest instant written: 9999-12-31T23:59:59Z (RFC 5280's "no well-defined expiration").
    public static let latest: Int64 = 253_402_300_799

    /// Reads RFC 3339 text (`2026-01-01T00:00:00Z`, `2026-01-01T09:00:00+09:00`, read by ASN1Kit's
    /// `RFC3339Time`, a space allowed for the `T`), or the `YYYYMMDDHHMMSSZ` and `YYMMDDHHMMSSZ`
    /// forms `openssl x509 -not_before` takes.
    ///
    /// - Throws: ``CertificateError`` `.invalidArgument` naming the text and what is wrong
    ///   (fractions of a second are refused: RFC 5280 forbids them).
    public static func parse(_ text: String) throws -> Int64 {
        let bytes = Array(text.utf8)
        func bad(_ why: String) -> CertificateError {
            CertificateError(.invalidArgument, "'\(text)' is not a time: \(why) (write 2026-01-01T00:00:00Z, or YYYYMMDDHHMMSSZ)")
        }
        guard bytes.count <= 64 else { throw bad("too long") }
        let noFractions = "certificates have no fractions of a second (RFC 5280)"
        func inRange(_ seconds: Int64) throws -> Int64 {
            guard (earliest...latest).contains(seconds) else { throw bad("it is outside the years 1 to 9999") }
            return seconds
        }
        if bytes.count == 15 || bytes.count == 13, bytes.last == UInt8(ascii: "Z"), !bytes.contains(UInt8(ascii: "-")) {
            // The DER content of a GeneralizedTime or a UTCTime, as openssl takes it.
            for index in 0..<(bytes.count - 1) where !(0x30...0x39).contains(bytes[index]) {
                throw bad("a digit is expected at position \(index + 1)")
            }
            guard let time = try? ASN1Time(derContent: bytes[...], kind: bytes.count == 15 ? .generalizedTime : .utcTime), time.year >= 1 else {
                throw bad("the date or time is out of range")
            }
            return try inRange(time.secondsSince1970)
        }
        let time: RFC3339Time
        do {
            time = try RFC3339Time(parsing: text, allowingSpaceSeparator: true)
        } catch let error as ASN1Error {
            // A fraction is named once the date and time before it have been read (not the zone
            // or range after it).
            if bytes.count > 19, bytes[19] == UInt8(ascii: "."), let offset = error.offset, offset >= 19 { throw bad(noFractions) }
            throw bad(error.reason)
        }
        if !time.fraction.isEmpty { throw bad(noFractions) }
        guard time.year >= 1 else { throw bad("the date or time is out of range") }
        return try inRange(time.secondsSince1970)
    }

    /// The instant as `ASN1Time` of the kind RFC 5280 asks for: UTCTime for 1950–2049,
    /// GeneralizedTime otherwise.
    ///
    /// - Throws: ``CertificateError`` `.invalidArgument` outside ``earliest``…``latest``.
    public static func asn1Time(_ seconds: Int64) throws -> ASN1Time {
        guard let time = ASN1Time(secondsSince1970: seconds) else {
            throw CertificateError(.invalidArgument, "the instant \(seconds) s since 1970 is outside the years 1 to 9999")
        }
        return time
    }

    /// RFC 3339 text of an instant (`2026-01-01T00:00:00Z`).
    public static func text(_ seconds: Int64) -> String {
        ASN1Time(secondsSince1970: seconds)?.description ?? "\(seconds) s since 1970"
    }

    /// Writes the instant as UTCTime (1950–2049) or GeneralizedTime.
    static func write(_ seconds: Int64, to writer: inout DERWriter) throws {
        let time = try asn1Time(seconds)
        writer.writePrimitive(time.kind == .utcTime ? .utcTime : .generalizedTime, content: Array(time.derText.utf8))
    }
}
