import Testing
import TrellisClient

/// Numbers printed for people: float noise rounded away, exact digits kept where they mean
/// something, never "-0".
@Suite struct HumanNumberTests {
    @Test func floatNoiseIsRoundedAway() {
        #expect(HumanNumber.format(-100.00000000000001) == "-100")
        #expect(HumanNumber.format(0.1 + 0.2) == "0.3")
        #expect(HumanNumber.format(999.9999999999991) == "1000")
        #expect(HumanNumber.format(6.123233995736766e-17) == "0")
        #expect(HumanNumber.format(16.666666666666668) == "16.66666667")
    }

    @Test func meaningfulDigitsStay() {
        #expect(HumanNumber.format(137.5) == "137.5")
        #expect(HumanNumber.format(-0.002) == "-0.002")
        #expect(HumanNumber.format(0.998) == "0.998")
        #expect(HumanNumber.format(123456.789) == "123456.789")
        #expect(HumanNumber.format(1234567890) == "1234567890")
        #expect(HumanNumber.format(1e20) == "1e+20")
        #expect(HumanNumber.format(3e-9) == "3e-09")
    }

    @Test func zeroHasNoSign() {
        #expect(HumanNumber.format(-0.0) == "0")
        #expect(HumanNumber.format(-1e-12) == "0")
        #expect(HumanNumber.format(0) == "0")
    }

    @Test func nonFiniteValuesAreLeftAsTheyAre() {
        #expect(HumanNumber.format(.infinity) == "inf")
        #expect(HumanNumber.format(.nan) == "nan")
    }

    /// Over many magnitudes the text reads back within the rounding, and never longer than the
    /// exact text.
    @Test func readsBackWithinTenSignificantDigits() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let mantissa = Double(state >> 11) / Double(1 << 53) * 2 - 1
            let value = mantissa * [1e-6, 1e-3, 1, 1e3, 1e6, 1e12][Int(state % 6)]
            let text = HumanNumber.format(value)
            guard let back = Double(text) else { Issue.record("\(text) does not read back"); continue }
            #expect(value.magnitude < HumanNumber.zeroBelow ? back == 0 : (back - value).magnitude <= value.magnitude * 5e-10,
                    "\(value) → \(text)")
            #expect(text.count <= JSONNumberText.format(value).count, "\(value) → \(text)")
        }
    }
}
