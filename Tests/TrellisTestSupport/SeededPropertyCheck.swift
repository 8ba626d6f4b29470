import PropertyBased

/// Property checks on inputs from swift-property-based's generators, drawn from a fixed seed:
/// tests here are deterministic (the same inputs every run, so CI cannot fail at random), which
/// `propertyCheck`'s fresh seed per run, and its `.fixedSeed` trait (meant for replaying one
/// failure, it always records an issue), do not give.
public enum SeededPropertyCheck {
    /// What `property` says is wrong for the first `limit` failing inputs of `count`, each with
    /// its input; empty when it held for all.
    public static func failures<Value, Shrinks>(
        count: Int, seed: UInt64, input: Generator<Value, Shrinks>, limit: Int = 3,
        _ property: (Value) -> String?
    ) -> [String] {
        var rng = Xoshiro(seed: (seed, seed &* 0x9E37_79B9_7F4A_7C15, ~seed, seed ^ 0xD1B5_4A32_D192_ED03))
        var failures: [String] = []
        for index in 0..<count {
            let value = input.run(using: &rng)
            if let problem = property(value) {
                failures.append("input \(index) of seed \(seed): \(problem)")
                if failures.count == limit { break }
            }
        }
        return failures
    }
}
