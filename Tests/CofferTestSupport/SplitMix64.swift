/// A small deterministic generator (SplitMix64) for test inputs, so that a failure can be replayed
/// and a parent process and its child derive the same operations; a `RandomNumberGenerator`, so
/// `Int.random(in:using:)` and `shuffled(using:)` take it.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(_ seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` bytes, the low byte of one draw each.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    /// A number in `0..<bound`.
    public mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
