import Testing
import TrellisGeometry
@testable import TrellisCore

/// The snapshot diff's identifier table answers exactly as `Dictionary<ItemID, Int>` does,
/// String equality (canonical equivalence) included.
@Suite struct IdentifierTableTests {
    static func check(stored: [String], asked: [String]) {
        var table = IdentifierTable(capacity: stored.count / 3)   // grows past its capacity
        var reference: [ItemID: Int] = [:]
        for (n, id) in stored.enumerated() where reference[ItemID(id)] == nil {
            table.insert(ItemID(id), n)
            reference[ItemID(id)] = n
        }
        for id in asked + stored {
            let mine = table.value(for: ItemID(id)), theirs = reference[ItemID(id)]
            #expect(mine == theirs, "\(id.unicodeScalars.map { String($0.value, radix: 16) })")
            if mine != theirs { return }
        }
    }

    @Test func asciiIdentifiersOfEveryLength() {
        var rng = SplitMix64(seed: 9)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789-_:/")
        func word() -> String {
            String((0..<Int.random(in: 0...40, using: &rng)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] })
        }
        let stored = (0..<20_000).map { _ in word() } + (0..<5_000).map { "id\($0)" }
        Self.check(stored: stored, asked: (0..<5_000).map { _ in word() } + (0..<6_000).map { "id\($0)" })
    }

    @Test func identifiersEqualUnderCanonicalEquivalenceAreOneKey() {
        // The Kelvin sign is canonically "K"; "é" precomposed is "e" and a combining acute.
        Self.check(stored: (0..<300).map { "k\($0)" } + ["K", "caf\u{e9}", "x\u{212B}"],
                   asked: ["\u{212A}", "cafe\u{301}", "xA\u{30A}", "x\u{c5}", "k\u{212A}"])
        // The first identifier that is not ASCII arrives after many that are, and the other way.
        Self.check(stored: (0..<500).map { "a\($0)" } + ["\u{212A}"] + (0..<500).map { "b\($0)" }, asked: ["K", "a7", "b499"])
        Self.check(stored: ["\u{1F600}"] + (0..<100).map { "n\($0)" }, asked: ["\u{1F600}", "n5", "n100"])
    }
}
