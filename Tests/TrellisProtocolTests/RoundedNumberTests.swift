import Testing
import TrellisCore
@testable import TrellisJSON
@testable import TrellisProtocol

/// Geometry, alpha and transforms go on the wire rounded to a fixed number of places, written
/// with integer arithmetic (`ScratchWriter.rounded`).
@Suite struct RoundedNumberTests {
    func rounded(_ value: Double, _ places: Int) -> String {
        var buffer = ByteBuffer()
        JSONWriter.writeRounded(value, places: places, into: &buffer)
        return buffer.description
    }

    @Test func roundsToThePlacesWithoutTrailingZeros() {
        #expect(rounded(12.5, 3) == "12.5")
        #expect(rounded(40, 3) == "40")
        #expect(rounded(-0.125, 3) == "-0.125")
        #expect(rounded(1234.56789, 3) == "1234.568")
        #expect(rounded(0.1 + 0.2, 3) == "0.3")
        #expect(rounded(1.0005, 3) == "1.001" || rounded(1.0005, 3) == "1")   // a tie in binary is either side
        #expect(rounded(0.0009999, 3) == "0.001")
        #expect(rounded(0.05, 3) == "0.05")
        #expect(rounded(0.007, 3) == "0.007")
        #expect(rounded(-1 / 1200, 6) == "-0.000833")
        #expect(rounded(6.123233995736766e-17, 6) == "0")
        #expect(rounded(0.70710678118, 6) == "0.707107")
        #expect(rounded(-3, 6) == "-3")
    }

    @Test func zeroHasNoSign() {
        #expect(rounded(0, 3) == "0")
        #expect(rounded(-0.0, 3) == "0")
        #expect(rounded(-0.0004, 3) == "0")
    }

    @Test func outOfRangeAndNonFiniteFallBackToTheExactWriter() {
        #expect(rounded(.nan, 3) == "null")
        #expect(rounded(.infinity, 3) == "null")
        #expect(rounded(1e300, 3) == "1e+300")
        #expect(rounded(-1e16, 3) == "-1e+16")
        #expect(rounded(123456789012.5, 6) == "123456789012.5")   // scaled past 2^53: exact form
        #expect(rounded(9_007_199_254.740_991, 3) == "9007199254.741")
    }

    /// What a reader parses is the double nearest the rounded decimal, within half a unit of the
    /// last place of the original.
    @Test func readsBackWithinHalfAUnit() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let places = [3, 6][Int(rng.next() % 2)]
            let value = (Double(rng.next() % 2_000_000_000) - 1e9) / Double(rng.next() % 100_000 + 1)
            let text = rounded(value, places)
            guard case .number(let parsed) = try JSONParser.parse(Array(text.utf8)) else {
                Issue.record("\(text) is not a number")
                continue
            }
            let unit = 1 / Double(ScratchWriter.powersOfTen[places])
            #expect((parsed - value).magnitude <= unit / 2 + value.ulp * 4, "\(value) → \(text)")
            #expect(!text.hasSuffix(".") && !(text.contains(".") && text.hasSuffix("0")), "\(text) has trailing zeros")
        }
    }

    /// The integer rounding agrees with `rounded()` (half away from zero) digit for digit,
    /// binary ties (k/2000, k/2e6) and whole numbers included.
    @Test func roundsAsRoundedDoes() {
        func reference(_ value: Double, _ places: Int) -> String {
            let unit = Double(ScratchWriter.powersOfTen[places])
            let scaled = (value * unit).rounded()
            if scaled == 0 { return "0" }
            let magnitude = UInt64(scaled.magnitude)
            var fraction = String(magnitude % UInt64(unit))
            fraction = String(repeating: "0", count: places - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            return (scaled < 0 ? "-" : "") + String(magnitude / UInt64(unit)) + (fraction.isEmpty ? "" : "." + fraction)
        }
        var rng = SplitMix64(seed: 11)
        for n in 0..<30_000 {
            let places = [3, 6][n % 2]
            let k = Double(Int64(bitPattern: rng.next()) % 40_000_000)
            let value: Double
            switch n % 4 {
            case 0: value = k / (places == 3 ? 2_000 : 2_000_000)
            case 1: value = k
            case 2: value = k / 7
            default: value = (k.magnitude / 977).squareRoot() * (k < 0 ? -1 : 1)
            }
            #expect(rounded(value, places) == reference(value, places), "\(value)")
        }
    }

    @Test func integersThroughTheScratchWriter() {
        for value in [0, 7, 10, -9, -10, 99, 100, 101, -999, 1_000, 12_345, 999_999, 1_000_001, Int.max, Int.min, Int.min + 1] {
            var buffer = ByteBuffer()
            buffer.appendScratch(maximumCount: ScratchWriter.maximumNumberBytes) { $0.int(value) }
            #expect(buffer.description == String(value))
        }
    }

    @Test func wireGeometryAndTransformsAreRounded() {
        var b = ByteBuffer()
        WireEncoding.writeRect(Rect(1 / 3, -2.0005, 40, 100.125), into: &b)
        #expect(b.description == "[0.333,-2.001,40,100.125]" || b.description == "[0.333,-2,40,100.125]")
        b.clear()
        var t = Transform3D.identity
        t.m11 = 0.55; t.m12 = 1 / 3; t.m34 = -1 / 1200; t.m41 = 12.5
        WireEncoding.writeTransform(t, into: &b)
        #expect(b.description == "[0.55,0.333333,0,0,0,1,0,0,0,0,1,-0.000833,12.5,0,0,1]")
    }
}
