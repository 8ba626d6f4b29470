#if canImport(Glibc)
import Glibc
#endif

/// Round tick values for a chart axis: steps of 1, 2, 2.5 or 5 times a power of ten, about
/// `target` of them over the range, as charting tools choose them (so labels read 0, 0.5, 1).
public struct AxisTicks: Sendable, Equatable {
    /// The axis' ends: the data's range widened to whole steps.
    public var lower: Double, upper: Double
    public var step: Double

    public init(covering low: Double, _ high: Double, target: Int = 5) {
        var low = low, high = high
        if !(high > low) {
            // One value (or none): a unit either side, so a flat line sits mid-chart.
            let pad = low == 0 || !low.isFinite ? 1 : abs(low) * 0.1
            low = (low.isFinite ? low : 0) - pad
            high = (high.isFinite ? high : 0) + pad
        }
        let raw = (high - low) / Double(max(1, target))
        let power = pow(10, floor(log10(raw)))
        let fraction = raw / power
        // With a little slack: 0.2 / 0.1 reads 2.0000000000000004.
        let f = fraction - 1e-9
        let nice: Double = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10
        step = nice * power
        lower = floor(low / step + 1e-9) * step
        upper = ceil(high / step - 1e-9) * step
    }

    /// The tick values from `lower` to `upper`, each computed from its index (no drift).
    public var values: [Double] {
        let count = Int(((upper - lower) / step).rounded())
        return (0...count).map { lower + Double($0) * step }
    }

    /// A tick's label with the decimals the step needs (0.25 → two), the same for every tick
    /// of the axis (0.0, 0.5, 1.0), no "-0".
    public func label(_ value: Double) -> String {
        var decimals = 0
        var s = step
        while decimals < 9 && abs(s - s.rounded()) > 1e-9 * max(1, abs(s)) { s *= 10; decimals += 1 }
        let scale = pow(10, Double(decimals))
        var v = (value * scale).rounded() / scale
        if v == 0 { v = 0 }  // -0 → 0
        if decimals == 0 { return String(Int(v)) }
        let whole = String(Int(abs(v).rounded(.down)))
        let frac = Int(((abs(v) - abs(v).rounded(.down)) * scale).rounded())
        let fracText = String(frac)
        return (v < 0 ? "-" : "") + whole + "." + String(repeating: "0", count: decimals - fracText.count) + fracText
    }
}
