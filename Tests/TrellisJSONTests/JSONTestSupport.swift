import Foundation
import TrellisGeometry

@testable import TrellisJSON

/// A tiny deterministic generator (SplitMix64) so random tests repeat exactly.

enum JSONTestSupport {
    /// Equality that also tells -0 from 0 (JSONValue's == does not).
    static func identical(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x.bitPattern == y.bitPattern
        case (.string(let x), .string(let y)): return Array(x.utf8) == Array(y.utf8)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { identical($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { identical(value, $0) } ?? false }
        default: return false
        }
    }

    /// Equality up to a few units in the last place for numbers: Foundation's JSONSerialization
    /// on Linux is not correctly rounded for long mantissas, so cross-checks against it
    /// tolerate that (exactness is tested against the standard library instead).
    static func closeEnough(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return x == y || (x - y).magnitude <= 4 * max(x.ulp, y.ulp)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { closeEnough($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { closeEnough(value, $0) } ?? false }
        default: return a == b
        }
    }

    /// A random value up to `depth` levels deep, with awkward strings and numbers.
    static func randomValue(_ rng: inout SplitMix64, depth: Int) -> JSONValue {
        let choice = Int.random(in: 0..<(depth > 0 ? 8 : 5), using: &rng)
        switch choice {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .number(randomNumber(&rng))
        case 3, 4: return .string(randomString(&rng))
        case 5:
            let count = Int.random(in: 0...5, using: &rng)
            return .array((0..<count).map { _ in randomValue(&rng, depth: depth - 1) })
        default:
            let count = Int.random(in: 0...5, using: &rng)
            var members: [String: JSONValue] = [:]
            for _ in 0..<count { members[randomString(&rng)] = randomValue(&rng, depth: depth - 1) }
            return .object(members)
        }
    }

    static func randomNumber(_ rng: inout SplitMix64) -> Double {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return Double(Int.random(in: -1000...1000, using: &rng))
        case 1: return Double(Int64.random(in: -(1 << 53)...(1 << 53), using: &rng))
        case 2: return Double(Int.random(in: -100_000...100_000, using: &rng)) / 100
        case 3: return [0.0, -0.0, 0.1, 1e308, -1e308, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude].randomElement(using: &rng)!
        default:
            // Any finite double, from its bit pattern.
            while true {
                let value = Double(bitPattern: rng.next())
                if value.isFinite { return value }
            }
        }
    }

    static func randomString(_ rng: inout SplitMix64) -> String {
        let pool: [Unicode.Scalar] = [
            "a", "b", "z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}",
            "é", "ß", "\u{2028}", "中", "\u{FFFF}", "😀", "\u{10FFFF}", "\u{E000}",
        ]
        let count = Int.random(in: 0...8, using: &rng)
        var text = String.UnicodeScalarView()
        for _ in 0..<count { text.append(pool.randomElement(using: &rng)!) }
        return String(text)
    }

    /// Foundation's reading of a document, as a JSONValue; nil when Foundation refuses it.
    static func foundationValue(_ text: String) -> JSONValue? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        else { return nil }
        return convert(object)
    }

    private static func convert(_ object: Any) -> JSONValue {
        switch object {
        case is NSNull: return .null
        case let text as String: return .string(text)
        case let number as NSNumber:
            // Foundation returns booleans as a private NSNumber subclass.
            if String(describing: type(of: number)).contains("Boolean") { return .bool(number.boolValue) }
            return .number(number.doubleValue)
        case let array as [Any]: return .array(array.map(convert))
        case let dictionary as [String: Any]: return .object(dictionary.mapValues(convert))
        default: fatalError("unexpected Foundation value \(object)")
        }
    }
}
