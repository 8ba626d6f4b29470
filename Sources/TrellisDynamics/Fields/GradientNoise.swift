/// Seeded 3-D gradient noise (Perlin's construction: a pseudo-random gradient at every integer
/// lattice point, the dot products with the offsets to the cell's eight corners blended with
/// the quintic fade 6t⁵ − 15t⁴ + 10t³), for the noise and turbulence fields, which UIKit calls
/// "differentiable Perlin simplex noise". The value and its first two derivatives are
/// continuous; it is 0 at every lattice point and in [−1, 1] everywhere (the twelve edge
/// gradients of Perlin's improved noise, scaled by √(2/3): the sum for unit gradients is at most
/// √3/2). The gradients come from the seed and the corner through a SplitMix64 finaliser, so
/// the same seed gives the same numbers on every machine, bit for bit (no tables, no libm).
public struct GradientNoise: Hashable, Sendable {
    public var seed: UInt64

    public init(seed: UInt64) { self.seed = seed }

    /// The noise at (x, y, z), in lattice cells; 0 for coordinates beyond ±10¹⁵ or not finite.
    public func value(_ x: Double, _ y: Double, _ z: Double) -> Double {
        guard abs(x) < 1e15, abs(y) < 1e15, abs(z) < 1e15 else { return 0 }
        let fx = x.rounded(.down), fy = y.rounded(.down), fz = z.rounded(.down)
        let i = Int(fx), j = Int(fy), k = Int(fz)
        let u = x - fx, v = y - fy, w = z - fz
        let key = Self.mix(seed &+ 0x9E37_79B9_7F4A_7C15)
        func corner(_ di: Int, _ dj: Int, _ dk: Int) -> Double {
            var h = key ^ (UInt64(bitPattern: Int64(i &+ di)) &* 0x9E37_79B9_7F4A_7C15)
            h ^= UInt64(bitPattern: Int64(j &+ dj)) &* 0xC2B2_AE3D_27D4_EB4F
            h ^= UInt64(bitPattern: Int64(k &+ dk)) &* 0x1656_67B1_9E37_79F9
            return Self.gradient(Self.mix(h), u - Double(di), v - Double(dj), w - Double(dk))
        }
        let su = Self.fade(u), sv = Self.fade(v), sw = Self.fade(w)
        func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + t * (b - a) }
        let x00 = lerp(corner(0, 0, 0), corner(1, 0, 0), su)
        let x10 = lerp(corner(0, 1, 0), corner(1, 1, 0), su)
        let x01 = lerp(corner(0, 0, 1), corner(1, 0, 1), su)
        let x11 = lerp(corner(0, 1, 1), corner(1, 1, 1), su)
        let value = lerp(lerp(x00, x10, sv), lerp(x01, x11, sv), sw)
        return value * Self.scale
    }

    /// √(2/3): edge gradients are √2 long, and unit-gradient noise stays within √3/2.
    static let scale = (2.0 / 3.0).squareRoot()

    @inline(__always) static func fade(_ t: Double) -> Double { t * t * t * (t * (t * 6 - 15) + 10) }

    /// SplitMix64's finaliser: every input bit reaches every output bit.
    @inline(__always) static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The dot product of one of the twelve cube-edge directions with (x, y, z).
    @inline(__always) static func gradient(_ hash: UInt64, _ x: Double, _ y: Double, _ z: Double) -> Double {
        switch hash % 12 {
        case 0: return x + y
        case 1: return -x + y
        case 2: return x - y
        case 3: return -x - y
        case 4: return x + z
        case 5: return -x + z
        case 6: return x - z
        case 7: return -x - z
        case 8: return y + z
        case 9: return -y + z
        case 10: return y - z
        default: return -y - z
        }
    }
}
