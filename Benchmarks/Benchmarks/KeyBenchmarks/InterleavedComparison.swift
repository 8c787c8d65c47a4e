import Benchmark

/// Times Coffer and the raw OpenSSL loop alternately, in short slices, inside one benchmark
/// iteration, so both sides see the same machine state.
///
/// On a shared 2-core VM, wall-clock time drifts by ±20 % over the seconds between two separate
/// benchmarks (identical code measured twice differs that much), which swamps a 5 % target.
/// Alternating every few operations — and swapping which side goes first on every slice — puts
/// the drift on both sides equally. Each iteration records three custom metrics: both sides'
/// time per operation and Coffer's throughput as a share of the raw loop's (per mille).
struct InterleavedComparison {
    static let cofferTime = BenchmarkMetric.custom("Coffer ns per op", polarity: .prefersSmaller, useScalingFactor: false)
    static let rawTime = BenchmarkMetric.custom("raw OpenSSL ns per op", polarity: .prefersSmaller, useScalingFactor: false)
    static let share = BenchmarkMetric.custom("Coffer throughput, per mille of raw", polarity: .prefersLarger, useScalingFactor: false)

    static let metrics: [BenchmarkMetric] = [.wallClock, cofferTime, rawTime, share]

    /// Runs `slices` alternations of `coffer` and `raw` (each side doing `operations` in all over
    /// the slices) and records the metrics on `benchmark`.
    static func measure(
        _ benchmark: Benchmark, slices: Int, operations: Int,
        coffer: () throws -> Void, raw: () throws -> Void
    ) rethrows {
        let clock = ContinuousClock()
        var cofferTotal = Duration.zero
        var rawTotal = Duration.zero
        for slice in 0..<slices {
            if slice.isMultiple(of: 2) {
                cofferTotal += try clock.measure(coffer)
                rawTotal += try clock.measure(raw)
            } else {
                rawTotal += try clock.measure(raw)
                cofferTotal += try clock.measure(coffer)
            }
        }
        let cofferNs = nanoseconds(cofferTotal) / Double(operations)
        let rawNs = nanoseconds(rawTotal) / Double(operations)
        benchmark.measurement(cofferTime, Int(cofferNs.rounded()))
        benchmark.measurement(rawTime, Int(rawNs.rounded()))
        benchmark.measurement(share, Int((rawNs / cofferNs * 1000).rounded()))
    }

    private static func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }
}
