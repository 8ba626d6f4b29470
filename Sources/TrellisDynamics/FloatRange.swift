/// UIFloatRange: a closed range of Doubles that may be unbounded at either end (an attachment's
/// translation or angle limits). Unlike ClosedRange it can hold minimum > maximum, so a value
/// decoded from a request can be refused with a message rather than trap.
public struct FloatRange: Hashable, Sendable {
    public var minimum: Double
    public var maximum: Double

    public init(minimum: Double, maximum: Double) {
        self.minimum = minimum
        self.maximum = maximum
    }

    /// UIFloatRangeInfinite: no limit either way.
    public static let infinite = FloatRange(minimum: -.infinity, maximum: .infinity)
    /// UIFloatRangeZero.
    public static let zero = FloatRange(minimum: 0, maximum: 0)

    /// Unbounded both ways (UIFloatRangeIsInfinite).
    public var isInfinite: Bool { minimum == -.infinity && maximum == .infinity }

    public func contains(_ value: Double) -> Bool { minimum <= value && value <= maximum }
}
