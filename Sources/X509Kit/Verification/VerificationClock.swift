#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The current time and RFC 3339 text for instants, without Foundation.
enum VerificationClock {
    /// Seconds since 1970 now.
    static func now() -> Int64 {
        Int64(time(nil))
    }

    /// `2025-01-01T00:00:00Z` for seconds since 1970 (proleptic Gregorian, UTC).
    static func rfc3339(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))Z"
    }

    /// `12 days`, `3 hours`, `40 seconds`: the rough size of a span, for failure sentences.
    static func span(_ seconds: Int64) -> String {
        let value = seconds < 0 ? -seconds : seconds
        func unit(_ count: Int64, _ name: String) -> String { "\(count) \(name)\(count == 1 ? "" : "s")" }
        if value >= 86_400 { return unit(value / 86_400, "day") }
        if value >= 3600 { return unit(value / 3600, "hour") }
        if value >= 60 { return unit(value / 60, "minute") }
        return unit(value, "second")
    }
}
