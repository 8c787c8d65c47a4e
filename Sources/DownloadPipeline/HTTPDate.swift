#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The preferred HTTP date format, IMF-fixdate (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`.
///
/// Read by hand rather than with a date formatter: the format is fixed (29 ASCII characters, English
/// names, always GMT), and a formatter would bring in Foundation's locale data. Package API; callers
/// outside the package read it through ``RetryPolicy/retryAfter(_:now:)``, the fuzz target's
/// oracle through ``HTTPTextOracles``.
package enum HTTPDate {
    private static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The date, or `nil` when `text` is not an IMF-fixdate of a real day (a second of 60, a leap
    /// second, counts as the next second).
    package static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        // "Sun, 06 Nov 1994 08:49:37 GMT"
        //  0    5  8   12   17 20 23 26
        guard bytes.count == 29,
              dayNames.contains(where: { matches(bytes, at: 0, $0) }),
              bytes[3] == UInt8(ascii: ","), bytes[4] == UInt8(ascii: " "), bytes[7] == UInt8(ascii: " "),
              bytes[11] == UInt8(ascii: " "), bytes[16] == UInt8(ascii: " "), bytes[19] == UInt8(ascii: ":"),
              bytes[22] == UInt8(ascii: ":"), matches(bytes, at: 25, " GMT"),
              let day = number(bytes, 5, 2), let monthIndex = monthNames.firstIndex(where: { matches(bytes, at: 8, $0) }),
              let year = number(bytes, 12, 4), let hour = number(bytes, 17, 2), let minute = number(bytes, 20, 2),
              let second = number(bytes, 23, 2)
        else { return nil }
        let month = monthIndex + 1
        guard (1...daysInMonth(month, of: year)).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(((days * 24 + hour) * 60 + minute) * 60 + second))
    }

    /// Whether `bytes` hold the ASCII `word` at `offset`.
    private static func matches(_ bytes: [UInt8], at offset: Int, _ word: String) -> Bool {
        offset + word.utf8.count <= bytes.count && bytes[offset..<offset + word.utf8.count].elementsEqual(word.utf8)
    }

    /// The decimal number in `count` ASCII digits at `offset`.
    private static func number(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in bytes[offset..<offset + count] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func daysInMonth(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the given day of the proleptic Gregorian calendar (years 0–9999).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        // Count years from 1 March, so that the leap day ends each counted year, and from 400 years
        // before year 0 (one 146,097-day cycle), so that no number is negative.
        let marchYear = (month > 2 ? year : year - 1) + 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let days = marchYear * 365 + marchYear / 4 - marchYear / 100 + marchYear / 400 + dayOfYear
        // 1 January 1970 is day 719,468 counted from 1 March of year 0.
        return days - 146_097 - 719_468
    }
}
