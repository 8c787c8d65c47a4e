/// An instant written as RFC 3339 text (`2026-01-01T00:00:00Z`, `2026-01-01T09:00:00+09:00`,
/// `2026-01-01T00:00:00.5Z`): Coffer's one reader of that form, used where a person types a time
/// (`keytool certificate verify --at`, `keytool jwt verify --at`, X509Kit's `CertificateTime`).
///
/// The grammar, RFC 3339 §5.6:
///
/// ```
/// date-fullyear   = 4DIGIT
/// date-month      = 2DIGIT  ; 01-12
/// date-mday       = 2DIGIT  ; 01-28, 01-29, 01-30, 01-31 based on month/year
/// time-hour       = 2DIGIT  ; 00-23
/// time-minute     = 2DIGIT  ; 00-59
/// time-second     = 2DIGIT  ; 00-58, 00-59, 00-60 based on leap second rules
/// time-secfrac    = "." 1*DIGIT
/// time-numoffset  = ("+" / "-") time-hour ":" time-minute
/// time-offset     = "Z" / time-numoffset
///
/// partial-time    = time-hour ":" time-minute ":" time-second [time-secfrac]
/// full-date       = date-fullyear "-" date-month "-" date-mday
/// full-time       = partial-time time-offset
///
/// date-time       = full-date "T" full-time
/// ```
///
/// `T` and `Z` may be lower case (§5.6). The leap second `60` is refused, as POSIX time and
/// ``ASN1Time`` have none. Nothing may follow the offset.
public struct RFC3339Time: Hashable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// The digits of `time-secfrac` after the `.` ("" when none).
    public var fraction: String
    /// The offset from UTC in seconds, east positive: 32400 for `+09:00`, 0 for `Z`.
    public var utcOffset: Int

    /// Reads `text` as an RFC 3339 `date-time`.
    ///
    /// - Parameters:
    ///   - text: The whole text; nothing may precede or follow the date-time.
    ///   - allowingSpaceSeparator: Also accept a space between the date and the time, as RFC 3339
    ///     §5.6's note lets applications do for readability (`2026-01-01 00:00:00Z`).
    /// - Throws: ``ASN1Error`` `.invalidTime`, its ``ASN1Error/offset`` the byte offset where the
    ///   text departs from the grammar and its reason what is wrong there (`it is too short`,
    ///   `a digit is expected at position 6`, `the separators are not YYYY-MM-DDTHH:MM:SS`,
    ///   `it needs a zone: Z or ±HH:MM`, `the UTC offset is out of range`, `the date or time is out
    ///   of range`); the reason never quotes the text.
    public init(parsing text: String, allowingSpaceSeparator: Bool = false) throws {
        let bytes = Array(text.utf8)
        func bad(_ why: String, at offset: Int) -> ASN1Error {
            ASN1Error(.invalidTime, why, offset: offset)
        }
        func number(_ range: Range<Int>) throws -> Int {
            var value = 0
            for index in range {
                guard index < bytes.count else { throw bad("it ends early", at: index) }
                guard (0x30...0x39).contains(bytes[index]) else { throw bad("a digit is expected at position \(index + 1)", at: index) }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard bytes.count >= 20 else { throw bad("it is too short", at: bytes.count) }
        year = try number(0..<4)
        month = try number(5..<7)
        day = try number(8..<10)
        hour = try number(11..<13)
        minute = try number(14..<16)
        second = try number(17..<19)
        let separators: Set<UInt8> = allowingSpaceSeparator ? [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")] : [UInt8(ascii: "T"), UInt8(ascii: "t")]
        for (index, expected) in [(4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (13, UInt8(ascii: ":")), (16, UInt8(ascii: ":"))] where bytes[index] != expected {
            throw bad("the separators are not YYYY-MM-DDTHH:MM:SS", at: index)
        }
        guard separators.contains(bytes[10]) else { throw bad("the separators are not YYYY-MM-DDTHH:MM:SS", at: 10) }
        var zone = 19
        if bytes[zone] == UInt8(ascii: ".") {
            let digits = bytes[(zone + 1)...].prefix { (0x30...0x39).contains($0) }
            guard !digits.isEmpty else { throw bad("a fraction of a second needs digits after the '.'", at: zone + 1) }
            fraction = String(decoding: digits, as: UTF8.self)
            zone += 1 + digits.count
        } else {
            fraction = ""
        }
        let rest = bytes[zone...]
        if rest.count == 1, rest.first == UInt8(ascii: "Z") || rest.first == UInt8(ascii: "z") {
            utcOffset = 0
        } else if rest.count == 6, rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-"), bytes[zone + 3] == UInt8(ascii: ":") {
            let hours = try number(zone + 1..<zone + 3), minutes = try number(zone + 4..<zone + 6)
            guard hours < 24, minutes < 60 else { throw bad("the UTC offset is out of range", at: zone) }
            utcOffset = (hours * 3600 + minutes * 60) * (rest.first == UInt8(ascii: "+") ? 1 : -1)
        } else {
            throw bad("it needs a zone: Z or ±HH:MM", at: zone)
        }
        guard ASN1Time.isValid(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else {
            // The offset of the first field out of range: month, day, hour, minute, second.
            let dayValid = ASN1Time.isValid(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
            let offset = !(1...12).contains(month) ? 5 : !dayValid ? 8 : hour > 23 ? 11 : minute > 59 ? 14 : 17
            throw bad("the date or time is out of range", at: offset)
        }
    }

    /// The instant in seconds since 1970-01-01T00:00:00Z (the offset applied, the fraction
    /// dropped), in the proleptic Gregorian calendar without leap seconds, as POSIX counts time.
    public var secondsSince1970: Int64 {
        ASN1Time.secondsSince1970(year: year, month: month, day: day, hour: hour, minute: minute, second: second) - Int64(utcOffset)
    }
}
