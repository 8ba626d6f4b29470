import PropertyBased
import Testing
import TrellisTestSupport

@testable import TrellisJSON

/// JSON writer → parser round trips on generated documents: any value the writer writes parses
/// back to the same value, and writing that again gives the same bytes.
@Suite struct JSONRoundTripPropertyTests {
    /// A document built from a list of choices: each picks the next value's kind and content,
    /// containers take the values after them.
    static func document(_ choices: [Int]) -> JSONValue {
        var rest = choices[...]
        let strings = ["", "a", "é", "\"", "\\", "\n\t", "\u{0}\u{1F}", "/", "日本", "🙂", "\u{7F}", "key"]
        let numbers: [Double] = [0, -0.0, 1, -1, 0.1, 1e-7, 1e16, 123_456_789.125, .greatestFiniteMagnitude,
                                 .leastNonzeroMagnitude, -2.5e-300, 9_007_199_254_740_993]
        func value(depth: Int) -> JSONValue {
            guard let c = rest.popFirst() else { return .null }
            switch c % (depth < 6 ? 8 : 5) {
            case 0: return .null
            case 1: return .bool(c % 2 == 0)
            case 2:
                // Scaled, unless that leaves the finite numbers (JSON has no others).
                let base = numbers[c / 8 % numbers.count], scaled = base * Double(c % 3 == 0 ? 1 : c % 97)
                return .number(scaled.isFinite ? scaled : base)
            case 3: return .string(strings[c / 8 % strings.count] + String(c % 13))
            case 4: return .number(Double(c) / 7)
            case 5, 6: return .array((0..<(c / 8 % 4)).map { _ in value(depth: depth + 1) })
            default:
                var members: [String: JSONValue] = [:]
                for k in 0..<(c / 8 % 5) { members[strings[(c + k) % strings.count] + String(k)] = value(depth: depth + 1) }
                return .object(members)
            }
        }
        return value(depth: 0)
    }

    @Test func writtenDocumentsParseBackToThemselves() {
        let documents = Gen<Int>.int(in: 0...100_000).array(of: 1...60).map(Self.document)
        let failures = SeededPropertyCheck.failures(count: 5_000, seed: 3, input: documents) { value in
            var buffer = ByteBuffer()
            JSONWriter.write(value, into: &buffer)
            if buffer.holdsNonFiniteNumber { return "the generator made a non-finite number" }
            let bytes = buffer.bytes
            guard let parsed = try? JSONParser.parse(bytes) else { return "\(String(decoding: bytes, as: UTF8.self)) does not parse" }
            if parsed != value { return "\(String(decoding: bytes, as: UTF8.self)) parses to another value" }
            return JSONWriter.bytes(parsed) == bytes ? nil : "\(String(decoding: bytes, as: UTF8.self)) is written differently again"
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
