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

    /// Reads RFC 3339 text (`2026-01-01T00:00:00Z`, `2026-01-01T09:00:00+09:00`), or the
    /// `YYYYMMDDHHMMSSZ` and `YYMMDDHHMMSSZ` forms `openssl x509 -not_before` takes.
    ///
    /// - Throws: ``CertificateError`` `.invalidArgument` naming the text and what is wrong
    ///   (fractions of a second are refused: RFC 5280 forbids them).
    public static func parse(_ text: String) throws -> Int64 {
        let bytes = Array(text.utf8)
        func bad(_ why: String) -> CertificateError {
            CertificateError(.invalidArgument, "'\(text)' is not a time: \(why) (write 2026-01-01T00:00:00Z, or YYYYMMDDHHMMSSZ)")
        }
        guard bytes.count <= 64 else { throw bad("too long") }
        func number(_ range: Range<Int>) throws -> Int {
            guard range.upperBound <= bytes.count else { throw bad("it ends early") }
            var value = 0
            for index in range {
                guard (0x30...0x39).contains(bytes[index]) else { throw bad("a digit is expected at position \(index + 1)") }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        var year, month, day, hour, minute, second: Int
        var offset = 0
        if bytes.count == 15 || bytes.count == 13, bytes.last == UInt8(ascii: "Z"), !bytes.contains(UInt8(ascii: "-")) {
            let yearDigits = bytes.count == 15 ? 4 : 2
            year = try number(0..<yearDigits)
            if yearDigits == 2 { year += year < 50 ? 2000 : 1900 }
            month = try number(yearDigits..<yearDigits + 2)
            day = try number(yearDigits + 2..<yearDigits + 4)
            hour = try number(yearDigits + 4..<yearDigits + 6)
            minute = try number(yearDigits + 6..<yearDigits + 8)
            second = try number(yearDigits + 8..<yearDigits + 10)
        } else {
            guard bytes.count >= 20 else { throw bad("it is too short") }
            year = try number(0..<4)
            month = try number(5..<7)
            day = try number(8..<10)
            hour = try number(11..<13)
            minute = try number(14..<16)
            second = try number(17..<19)
            guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(bytes[10]),
                  bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":") else {
                throw bad("the separators are not YYYY-MM-DDTHH:MM:SS")
            }
            let zone = bytes[19...]
            if zone.first == UInt8(ascii: ".") { throw bad("certificates have no fractions of a second (RFC 5280)") }
            if zone.count == 1, zone.first == UInt8(ascii: "Z") || zone.first == UInt8(ascii: "z") {
                offset = 0
            } else if zone.count == 6, zone.first == UInt8(ascii: "+") || zone.first == UInt8(ascii: "-"), zone[zone.startIndex + 3] == UInt8(ascii: ":") {
                let hours = try number(20..<22), minutes = try number(23..<25)
                guard hours < 24, minutes < 60 else { throw bad("the UTC offset is out of range") }
                offset = (hours * 3600 + minutes * 60) * (zone.first == UInt8(ascii: "+") ? 1 : -1)
            } else {
                throw bad("it needs a zone: Z or ±HH:MM")
            }
        }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard year >= 1, (1...12).contains(month), (1...days[month - 1]).contains(day), hour < 24, minute < 60, second < 60 else {
            throw bad("the date or time is out of range")
        }
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let generalized = pad(year, 4) + pad(month, 2) + pad(day, 2) + pad(hour, 2) + pad(minute, 2) + pad(second, 2) + "Z"
        guard let civil = try? ASN1Time(derContent: Array(generalized.utf8)[...], kind: .generalizedTime) else {
            throw bad("the date or time is out of range")
        }
        let seconds = civil.secondsSince1970 - Int64(offset)
        guard (earliest...latest).contains(seconds) else { throw bad("it is outside the years 1 to 9999") }
        return seconds
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
