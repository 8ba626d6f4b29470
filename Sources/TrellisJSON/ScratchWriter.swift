/// Writes JSON bytes through a raw pointer into scratch space the caller sized, with no
/// capacity or uniqueness check per byte; the caller then appends the scratch to a
/// `ByteBuffer` in one copy. Frames write each changed view this way: per-byte array
/// appends were most of the time of encoding a 40 KB frame.
///
/// Bounds: a number takes at most `maximumNumberBytes`; the caller reserves enough for what
/// it writes (nothing checks).
public struct ScratchWriter {
    /// The most bytes one number can take: an Int's 20 characters, or a Double's shortest form
    /// (`-2.2250738585072014e-308`, 24).
    public static let maximumNumberBytes = 32

    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    /// Bytes written so far.
    @usableFromInline var count = 0
    /// NaNs and infinities written (as `null`); `appendScratch` carries them to the buffer.
    @usableFromInline var nonFiniteNumbers = 0

    @inlinable
    public init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

    /// The bytes written so far.
    @inlinable
    public var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inlinable
    public mutating func byte(_ value: UInt8) {
        base[count] = value
        count &+= 1
    }

    /// Copies ASCII text as it is (keys and punctuation that need no escaping).
    @inlinable
    public mutating func raw(_ text: StaticString) {
        (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        count &+= text.utf8CodeUnitCount
    }

    /// An integer in decimal.
    @inlinable
    public mutating func int(_ value: Int) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        unpadded(UInt64(value.magnitude))
    }

    /// `value` rounded to `places` decimal places (0…9) with integer arithmetic, without
    /// trailing zeros: `12.5`, `40`, `-0.125`; a value that rounds to zero is `0`. A value
    /// whose scaled form passes 2^53 (no longer whole steps), NaN and infinities are written
    /// as `JSONWriter.writeNumber` writes them. The text reads back as the double nearest
    /// the rounded decimal.
    @inlinable
    public mutating func rounded(_ value: Double, places: Int) {
        if places == 3 { return thousandths(value) }
        var rest = wholePart(value, unit: places == 6 ? 1_000_000 : Self.powersOfTen[places])
        guard rest != 0 else { return }
        byte(UInt8(ascii: "."))
        var places = places
        while rest % 10 == 0 {
            rest /= 10
            places -= 1
        }
        digits(rest, count: places)
    }

    /// `rounded(value, places: 3)` with the unit folded in and no loops: the places of every
    /// coordinate of every frame, and a fifth of a frame's work when it went the general way.
    @inlinable
    public mutating func thousandths(_ value: Double) {
        let fraction = wholePart(value, unit: 1000)
        guard fraction != 0 else { return }
        // Up to three digits, the trailing zeros left off.
        let (hundreds, rest) = fraction.quotientAndRemainder(dividingBy: 100)
        byte(UInt8(ascii: "."))
        byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: hundreds))
        guard rest != 0 else { return }
        let (tens, ones) = rest.quotientAndRemainder(dividingBy: 10)
        byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tens))
        if ones != 0 { byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: ones)) }
    }

    /// Writes `value` rounded to whole `unit`ths (half away from zero) up to its fraction: the
    /// sign and the whole part, or all of it for whole numbers, zero and values too large to
    /// scale (written as `exact`). Returns the fraction in units still to write; 0 for none.
    @inlinable @inline(__always)
    mutating func wholePart(_ value: Double, unit: UInt64) -> UInt64 {
        // Whole numbers (sizes, most offsets) skip the scaling and the division.
        if value.magnitude < 1e15, Double(Int64(value)) == value {
            if value == 0 {
                byte(UInt8(ascii: "0"))
            } else {
                if value < 0 { byte(UInt8(ascii: "-")) }
                unpadded(UInt64(value.magnitude))
            }
            return 0
        }
        let product = value * Double(unit)
        guard product.magnitude < 9_007_199_254_740_992 else {
            exact(value)
            return 0
        }
        let scaled = Self.roundedHalfAway(product)
        if scaled == 0 {
            byte(UInt8(ascii: "0"))
            return 0
        }
        if scaled < 0 { byte(UInt8(ascii: "-")) }
        let (integer, fraction) = scaled.magnitude.quotientAndRemainder(dividingBy: unit)
        unpadded(integer)
        return fraction
    }

    /// `product` rounded half away from zero, as `rounded()` rounds, for a magnitude below
    /// 2^53. Through integer conversion (one instruction) rather than `rounded()`: without
    /// SSE4.1 in the x86-64 baseline that was a call into libm. Below 2^53 the truncation's
    /// remainder is exact, and a double and its rounding are on the same side of the bound
    /// (from 2^52 up every double is whole), so callers check the bound first; NaN fails it.
    @inlinable
    static func roundedHalfAway(_ product: Double) -> Int64 {
        let truncated = Int64(product)
        let remainder = product - Double(truncated)
        return remainder >= 0.5 ? truncated &+ 1 : remainder <= -0.5 ? truncated &- 1 : truncated
    }

    /// A number as `JSONWriter.writeNumber` writes it (the rare path of `rounded`).
    @usableFromInline
    mutating func exact(_ value: Double) {
        var buffer = ByteBuffer(capacity: Self.maximumNumberBytes)
        JSONWriter.writeNumber(value, into: &buffer)
        nonFiniteNumbers &+= buffer.nonFiniteNumbers
        buffer.withUnsafeBytes { bytes in
            for b in bytes { byte(b) }
        }
    }

    /// `value` in decimal, two digits at a time from the right (a division per pair, not per
    /// digit).
    @inlinable
    mutating func unpadded(_ value: UInt64) {
        let digitCount = Self.digitCount(value)
        var rest = value, index = count &+ digitCount
        let pairs = Self.digitPairs.utf8Start
        while rest >= 100 {
            let (quotient, pair) = rest.quotientAndRemainder(dividingBy: 100)
            index &-= 2
            base[index] = pairs[Int(pair) &* 2]
            base[index &+ 1] = pairs[Int(pair) &* 2 &+ 1]
            rest = quotient
        }
        if rest >= 10 {
            base[index &- 2] = pairs[Int(rest) &* 2]
            base[index &- 1] = pairs[Int(rest) &* 2 &+ 1]
        } else {
            base[index &- 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
        }
        count &+= digitCount
    }

    /// "00" to "99" back to back; a StaticString, so reading it needs no lazy initialisation.
    @usableFromInline
    static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// `value` as exactly `count` digits, zero-padded on the left.
    @inlinable
    mutating func digits(_ value: UInt64, count digitCount: Int) {
        var rest = value, index = count &+ digitCount
        while index > count {
            index &-= 1
            base[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        count &+= digitCount
    }

    @usableFromInline
    static let powersOfTen: [UInt64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]

    /// The number of decimal digits of `value` (1 for 0). Comparisons first: coordinates
    /// mostly have four digits or fewer, and a division per digit cost more than the writing.
    @inlinable
    static func digitCount(_ value: UInt64) -> Int {
        if value < 10 { return 1 }
        if value < 100 { return 2 }
        if value < 1_000 { return 3 }
        if value < 10_000 { return 4 }
        var count = 5, rest = value / 100_000
        while rest > 0 {
            rest /= 10
            count &+= 1
        }
        return count
    }
}

extension ByteBuffer {
    /// Lets `body` write at most `maximumCount` bytes through a `ScratchWriter` on the stack,
    /// then appends what it wrote in one copy.
    @inlinable
    public mutating func appendScratch(maximumCount: Int, _ body: (inout ScratchWriter) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumCount) { scratch in
            var writer = ScratchWriter(scratch.baseAddress!)
            body(&writer)
            storage.append(contentsOf: writer.written)
            nonFiniteNumbers &+= writer.nonFiniteNumbers
        }
    }
}
