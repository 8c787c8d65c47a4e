import ASN1Kit

/// The current time and RFC 3339 text for instants, without Foundation.
enum VerificationClock {
    /// Seconds since 1970 now.
    static func now() -> Int64 {
        WallClock.wholeSecondsSince1970()
    }

    /// `2025-01-01T00:00:00Z` for seconds since 1970 (proleptic Gregorian, UTC).
    static func rfc3339(_ seconds: Int64) -> String {
        ASN1Time(secondsSince1970: seconds)?.description ?? "\(seconds) s since 1970"
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
