#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Numbers as the CLI prints them for people: rounded to ten significant digits, then written in
/// the shortest form that reads back the same (integers without ".0", never "-0"). Sums and
/// products of doubles carry noise in their last digits (`-100.00000000000001`, a 5e-17
/// relative error); ten digits are far above it and far below anything a person compares, and
/// a magnitude under 1e-9 (a point, a second, a pt/s: nothing on a screen) prints as 0.
/// `--json` prints the server's numbers untouched.
public enum HumanNumber {
    public static let significantDigits = 10
    /// Below this magnitude a value is noise around zero (cos(π/2) is 6e-17, not 0).
    public static let zeroBelow = 1e-9

    public static func format(_ value: Double) -> String {
        JSONNumberText.format(rounded(value))
    }

    /// `value` to `significantDigits` significant digits (0 below `zeroBelow`; non-finite as is).
    public static func rounded(_ value: Double) -> Double {
        guard value.isFinite else { return value }
        guard value.magnitude >= zeroBelow else { return 0 }
        let shift = significantDigits - 1 - Int(log10(value.magnitude).rounded(.down))
        // Powers of ten up to 1e22 are exact doubles, and the scaled value is below 2^53, so the
        // quotient (or product) is the double nearest the rounded decimal.
        if (0...22).contains(shift) {
            let scale = power(shift)
            return (value * scale).rounded() / scale
        }
        if (-22 ..< 0).contains(shift) {
            let scale = power(-shift)
            return (value / scale).rounded() * scale
        }
        return value
    }

    private static func power(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<n { p *= 10 }
        return p
    }
}
