import ASN1Kit
import CofferJSON

/// A JWT time (RFC 7519 §2 NumericDate): seconds since 1970-01-01T00:00:00Z UTC, ignoring leap
/// seconds, possibly fractional.
public struct NumericDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970, UTC.
    public var secondsSince1970: Double

    /// The time `secondsSince1970` seconds after the epoch.
    public init(secondsSince1970: Double) {
        self.secondsSince1970 = secondsSince1970
    }

    /// The system's wall-clock time (`clock_gettime(CLOCK_REALTIME)`).
    public static var now: NumericDate {
        NumericDate(secondsSince1970: WallClock.secondsSince1970())
    }

    /// This time plus `seconds`.
    public func adding(_ seconds: Double) -> NumericDate {
        NumericDate(secondsSince1970: secondsSince1970 + seconds)
    }

    /// Whether `lhs` is earlier than `rhs`.
    public static func < (lhs: NumericDate, rhs: NumericDate) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    /// ISO 8601 in UTC, `2026-11-28T10:00:00Z`, with the fraction when there is one
    /// (`2026-11-28T10:00:00.5Z`).
    public var description: String {
        let milliseconds = (secondsSince1970 * 1000).rounded()
        guard milliseconds.isFinite, abs(milliseconds) < 1e15 else { return "\(secondsSince1970) s since 1970" }
        let total = Int64(milliseconds)
        let (whole, fraction) = (total.quotientAndRemainder(dividingBy: 1000))
        let seconds = fraction < 0 ? whole - 1 : whole
        let millis = fraction < 0 ? fraction + 1000 : fraction
        guard let time = ASN1Time(secondsSince1970: seconds) else { return "\(secondsSince1970) s since 1970" }
        let text = time.description
        guard millis > 0, text.hasSuffix("Z") else { return text }
        var digits = String(millis)
        while digits.count < 3 { digits = "0" + digits }
        while digits.hasSuffix("0") { digits.removeLast() }
        return String(text.dropLast()) + "." + digits + "Z"
    }

    /// The JSON number: an integer when whole, else the shortest decimal.
    var json: JSONValue {
        if secondsSince1970 == secondsSince1970.rounded(), abs(secondsSince1970) < 1e15 {
            return .number(String(Int64(secondsSince1970)))
        }
        return .number(String(secondsSince1970))
    }

    /// A JSON number read as a NumericDate; `nil` for any other value or a non-finite number.
    init?(json value: JSONValue) {
        guard case .number(let text) = value, let seconds = Double(text), seconds.isFinite else { return nil }
        self.secondsSince1970 = seconds
    }
}
