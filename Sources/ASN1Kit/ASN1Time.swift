import CofferErrors

/// A UTCTime or GeneralizedTime in its DER form (X.690 §11.7, §11.8): always UTC (`Z`), seconds
/// present, GeneralizedTime fractions without trailing zeros.
public struct ASN1Time: Hashable, Sendable, CustomStringConvertible {
    /// Which of the two types the value came from.
    public enum Kind: Sendable, Hashable { case utcTime, generalizedTime }

    public var kind: Kind
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Fractional-second digits of a GeneralizedTime ("" when none).
    public var fraction: String

    /// Parses DER content octets of the given kind.
    public init(derContent content: ArraySlice<UInt8>, kind: Kind, offset: Int = 0) throws {
        let name = kind == .utcTime ? "UTCTime" : "GeneralizedTime"
        func bad(_ what: String) -> ASN1Error {
            ASN1Error(.invalidTime, "\(name) at offset \(offset) \(what)", offset: offset)
        }
        let bytes = Array(content)
        let yearDigits = kind == .utcTime ? 2 : 4
        let fixed = yearDigits + 10 // YY(YY) MM DD HH MM SS
        guard bytes.count >= fixed + 1, bytes.last == UInt8(ascii: "Z") else {
            throw bad("is not in the DER form \(kind == .utcTime ? "YYMMDDHHMMSSZ" : "YYYYMMDDHHMMSS[.f]Z")")
        }
        func number(_ range: Range<Int>) throws -> Int {
            var value = 0
            for i in range {
                guard (0x30...0x39).contains(bytes[i]) else { throw bad("has a non-digit where a digit is required") }
                value = value * 10 + Int(bytes[i] - 0x30)
            }
            return value
        }
        var y = try number(0..<yearDigits)
        if kind == .utcTime { y += y < 50 ? 2000 : 1900 }
        year = y
        month = try number(yearDigits..<yearDigits + 2)
        day = try number(yearDigits + 2..<yearDigits + 4)
        hour = try number(yearDigits + 4..<yearDigits + 6)
        minute = try number(yearDigits + 6..<yearDigits + 8)
        second = try number(yearDigits + 8..<yearDigits + 10)
        self.kind = kind
        let rest = bytes[fixed..<(bytes.count - 1)]
        if kind == .utcTime {
            guard rest.isEmpty else { throw bad("is not in the DER form YYMMDDHHMMSSZ") }
            fraction = ""
        } else if rest.isEmpty {
            fraction = ""
        } else {
            guard rest.first == UInt8(ascii: "."), rest.count >= 2,
                  rest.dropFirst().allSatisfy({ (0x30...0x39).contains($0) }) else {
                throw bad("has a malformed fraction of a second")
            }
            guard rest.last != UInt8(ascii: "0") else { throw bad("has trailing zeros in its fraction, which DER forbids") }
            fraction = String(decoding: rest.dropFirst(), as: UTF8.self)
        }
        guard Self.isValid(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else {
            throw bad("is not a valid date and time")
        }
    }

    /// Whether the fields name a civil date and time: a month 1–12, a day of that month (leap
    /// years Gregorian), hour < 24, minute < 60, second < 60 (no leap second).
    static func isValid(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Bool {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (1...12).contains(month) && (1...days[month - 1]).contains(day)
            && (0..<24).contains(hour) && (0..<60).contains(minute) && (0..<60).contains(second)
    }

    /// The instant `seconds` after 1970-01-01T00:00:00Z (proleptic Gregorian, no leap seconds), as
    /// RFC 5280 writes it: a UTCTime for the years 1950 to 2049, a GeneralizedTime otherwise.
    /// The inverse of ``secondsSince1970`` (H. Hinnant's civil-from-days). `nil` outside the years
    /// 1 to 9999, which neither type can write.
    public init?(secondsSince1970 seconds: Int64) {
        guard (-62_135_596_800...253_402_300_799).contains(seconds) else { return nil }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        month = Int(mp < 10 ? mp + 3 : mp - 9)
        day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
        hour = Int(secondOfDay / 3600)
        minute = Int(secondOfDay / 60 % 60)
        second = Int(secondOfDay % 60)
        fraction = ""
        kind = (1950...2049).contains(year) ? .utcTime : .generalizedTime
    }

    /// The DER content octets' text: `YYMMDDHHMMSSZ` for a UTCTime, `YYYYMMDDHHMMSS[.f]Z` for a
    /// GeneralizedTime.
    public var derText: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let date = kind == .utcTime ? pad(year % 100, 2) : pad(year, 4)
        let frac = fraction.isEmpty ? "" : ".\(fraction)"
        return date + pad(month, 2) + pad(day, 2) + pad(hour, 2) + pad(minute, 2) + pad(second, 2) + frac + "Z"
    }

    /// Seconds since 1970-01-01T00:00:00Z (the fraction of a second dropped), in the proleptic
    /// Gregorian calendar without leap seconds, as POSIX counts time.
    public var secondsSince1970: Int64 {
        Self.secondsSince1970(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// Seconds since 1970-01-01T00:00:00Z of a UTC civil date and time (fields as `isValid`
    /// accepts them): the one conversion of ``ASN1Time`` and ``RFC3339Time``.
    static func secondsSince1970(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64 {
        // Days from the civil date (H. Hinnant's algorithm), March-based years.
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + Int64(hour) * 3_600 + Int64(minute) * 60 + Int64(second)
    }

    /// ISO 8601 text, e.g. `2026-11-21T22:15:41Z` (the year in four digits).
    public var description: String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let frac = fraction.isEmpty ? "" : ".\(fraction)"
        let year = year >= 1000 ? "\(self.year)" : String(repeating: "0", count: 4 - "\(self.year)".count) + "\(self.year)"
        return "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))\(frac)Z"
    }
}

extension ASN1Element {
    /// The value of a UTCTime or GeneralizedTime (by tag, or `kind` for IMPLICIT tags).
    public func time(as kind: ASN1Time.Kind? = nil) throws -> ASN1Time {
        let resolved = kind ?? (tag.number == 23 ? .utcTime : .generalizedTime)
        return try ASN1Time(derContent: content, kind: resolved, offset: offset)
    }
}
