import Testing
@testable import TrellisCore

/// `ItemList.sameContent(at:as:at:)` and the cursor's form of it read sizes, reuse identifiers
/// and payloads from the chunks' columns in place; they must agree with comparing the built
/// items, wherever the chunk boundaries fall and whichever columns each chunk keeps.
@Suite struct ItemListSameContentTests {
    /// Items with a bit of everything: some sized, some with another reuse identifier, payloads
    /// absent, empty or of a few lengths, so equal and unequal pairs both come up.
    static func item(_ n: Int) -> Item {
        let size: Size? = n % 5 == 1 ? Size(Double(n % 3 + 1), 2) : nil
        let reuse = n % 7 == 3 ? "header-\(n % 2)" : Item.defaultReuseIdentifier
        let data: ItemPayload? = switch n % 6 {
        case 0, 1: nil
        case 2: ItemPayload(bytes: [])
        default: ItemPayload(bytes: Array("{\"k\":\(n % 4)}".utf8))
        }
        return Item(id: ItemID("i\(n)"), size: size, reuseIdentifier: reuse, data: data)
    }

    static func expected(_ a: Item, _ b: Item) -> Bool {
        a.size == b.size && a.reuseIdentifier == b.reuseIdentifier && a.data == b.data
    }

    @Test(arguments: [(3, 4), (4, 4), (5, 1920)])
    func agreesWithBuiltItemsAcrossChunks(capacities: (Int, Int)) {
        let a = ItemList((0..<40).map(Self.item), chunkCapacity: capacities.0)
        // Shifted, so equal contents sit at other offsets and in other chunks.
        let b = ItemList((7..<50).map(Self.item), chunkCapacity: capacities.1)
        var equal = 0, unequal = 0
        for i in a.indices {
            for j in b.indices {
                let want = Self.expected(a[i], b[j])
                #expect(a.sameContent(at: i, as: b, at: j) == want, "a[\(i)] vs b[\(j)]")
                #expect(b.sameContent(at: j, as: a, at: i) == want, "b[\(j)] vs a[\(i)]")
                if want { equal += 1 } else { unequal += 1 }
            }
        }
        #expect(equal > 0 && unequal > 0)
    }

    @Test func plainChunksAgainstChunksWithColumns() {
        // Chunks of plain items keep no size, reuse or payload column; those they are compared
        // with keep all three (item 0 is plain content, item 2 has an empty payload).
        let plain = ItemList((0..<9).map { Item(id: ItemID("p\($0)")) }, chunkCapacity: 4)
        let rich = ItemList((0..<30).map(Self.item), chunkCapacity: 4)
        #expect(plain.holdsOnlyPlainItems)
        #expect(!rich.holdsOnlyPlainItems)
        for i in plain.indices {
            for j in rich.indices {
                let want = Self.expected(plain[i], rich[j])
                #expect(plain.sameContent(at: i, as: rich, at: j) == want, "plain[\(i)] vs rich[\(j)]")
                #expect(rich.sameContent(at: j, as: plain, at: i) == want, "rich[\(j)] vs plain[\(i)]")
            }
        }
        #expect(plain.sameContent(at: 0, as: rich, at: 0))
        #expect(!plain.sameContent(at: 0, as: rich, at: 2), "an empty payload is not an absent one")
    }

    @Test func cursorAgreesWithTheList() {
        let a = ItemList((0..<60).map(Self.item), chunkCapacity: 6)
        let b = ItemList((0..<60).reversed().map(Self.item), chunkCapacity: 5)
        var cursor = ItemList.Cursor(a)
        var matches = 0
        // Ascending positions, each read twice (as the diff and the flow layout's rows do).
        for i in a.indices {
            for j in [59 - i, (i * 17) % 60] {
                let want = Self.expected(a[i], b[j])
                #expect(cursor.sameContent(at: i, as: b, at: j) == want, "a[\(i)] vs b[\(j)]")
                if want { matches += 1 }
            }
            #expect(cursor.size(at: i) == a[i].size)
        }
        #expect(matches >= 60)
    }

    @Test func plainnessFollowsEdits() {
        var list = ItemList((0..<10).map { Item(id: ItemID("p\($0)")) }, chunkCapacity: 4)
        #expect(list.holdsOnlyPlainItems)
        list.replace(at: 5, with: Item(id: "p5", data: ItemPayload(bytes: [1])))
        #expect(!list.holdsOnlyPlainItems)
        list.replace(at: 5, with: Item(id: "p5"))
        #expect(list.holdsOnlyPlainItems)
        list.insert(Item(id: "sized", size: Size(1, 1)), at: 9)
        #expect(!list.holdsOnlyPlainItems)
    }
}
