#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The system's wall-clock time (`clock_gettime(CLOCK_REALTIME)`), for the modules that judge
/// times (certificate validity, JWT claims) without Foundation: the one place that asks libc.
public enum WallClock {
    /// Seconds since 1970-01-01T00:00:00Z, with the fraction.
    public static func secondsSince1970() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Whole seconds since 1970-01-01T00:00:00Z (rounded down).
    public static func wholeSecondsSince1970() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec)
    }
}
