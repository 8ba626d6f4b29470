/// A small deterministic random number generator (SplitMix64), so demos, property tests and
/// benchmarks draw the same numbers on every machine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    @inlinable public init(seed: UInt64) { state = seed }

    @inlinable public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<n (0 when n ≤ 0); the modulo bias is negligible for test-sized n.
    @inlinable public mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }
}
